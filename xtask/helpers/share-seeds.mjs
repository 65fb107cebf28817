// The share_decode fuzz target's seeds (cargo xtask fuzz-seed): a share
// link of each document given, in both schemes, written by Node's zlib as
// the playground's JavaScript would.
//
//   node xtask/helpers/share-seeds.mjs OUT FILE...
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

const [out, ...files] = process.argv.slice(2);
for (const file of files) {
  const code = readFileSync(file, "utf8");
  const kind = file.includes("oz0-plugin") ? "plugin-manifest" : "playbook";
  const json = Buffer.from(JSON.stringify({ code, kind, view: "graph" }), "utf8");
  const name = "seed-" + file.replace(/\//g, "_");
  const pako = deflateSync(json, { level: 9 }).toString("base64url");
  writeFileSync(join(out, name + ".pako"), "#pako:" + pako);
  writeFileSync(join(out, name + ".base64"), "#base64:" + json.toString("base64url"));
}
