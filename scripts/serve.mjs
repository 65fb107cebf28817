// scripts/run.sh's server: serves the build (dist/, or OPB_DIST) on
// http://127.0.0.1:PORT/ with the end-to-end tests' server
// (tests/e2e/harness.mjs), which sends the headers docs/embedding.md asks a
// host for: every page refuses to be framed by another site but the embed
// page. Trunk's own server sends one set of headers for every file.
//
//   node scripts/serve.mjs [PORT]    (8080 unless given)
import { dist, serve } from "../tests/e2e/harness.mjs";

const port = Number(process.argv[2] ?? 8080);
const server = await serve(dist, { port });
console.error(`serving ${dist} at ${server.url}`);
