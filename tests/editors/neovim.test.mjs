// `opb lsp` in a real client: Debian's Neovim (0.7, headless, no user
// config) starts it with vim.lsp.start_client, opens a broken playbook, and
// reads what a person would see: the diagnostics with their codes and rule
// links, the hover over a step id, and the quick fix applied to the buffer.
// Needs a built `opb` (target/debug/opb, or $OPB) and /usr/bin/nvim
// (scripts/setup.sh test).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const opb = resolve(root, process.env.OPB ?? "target/debug/opb");

// A playbook whose `next: gaet` names no step (PB213; `gate` is meant).
const BROKEN = readFileSync(join(root, "tests/editors/refund.broken.opb.yaml"), "utf8");

// Runs in Neovim: everything it learns goes to a JSON file, read below.
const SCRIPT = `
local out = {}
local function done()
  vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.OPB_OUT)
  vim.cmd('qall!')
end
local ok, err = pcall(function()
  local client = vim.lsp.start_client({ name = 'opb', cmd = { vim.env.OPB, 'lsp' }, root_dir = vim.env.OPB_DIR })
  assert(client, 'start_client failed')
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.OPB_FILE))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client)
  out.attached = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(out.diagnostics, {
      lnum = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source,
      code = lsp.code, href = (lsp.codeDescription or {}).href,
    })
  end
  local uri = vim.uri_from_bufnr(buf)
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = uri }, position = { line = 10, character = 10 } }, 5000)
  for _, answer in pairs(hover or {}) do
    if answer.result then out.hover = answer.result.contents.value end
  end
  local fix_at = { line = 9, character = 10 }
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri }, range = { start = fix_at, ['end'] = fix_at },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, 9) },
  }, 5000)
  for _, answer in pairs(actions or {}) do
    for _, action in ipairs(answer.result or {}) do
      out.action = action.title
      vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    end
  end
  out.line = vim.api.nvim_buf_get_lines(buf, 9, 10, false)[1]
  out.cleared = vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if ((d.user_data or {}).lsp or {}).code == 'PB213' then return false end
    end
    return true
  end, 50)
  vim.lsp.stop_client(client)
end)
if not ok then out.error = tostring(err) end
done()
`;

test("Neovim reads opb lsp's diagnostics, hover and quick fix", () => {
  const dir = mkdtempSync(join(tmpdir(), "opb-neovim-"));
  try {
    const file = join(dir, "refund.opb.yaml");
    const script = join(dir, "check.lua");
    const result = join(dir, "result.json");
    writeFileSync(file, BROKEN);
    writeFileSync(script, SCRIPT);
    const run = spawnSync("/usr/bin/nvim", ["--headless", "--clean", "-n", "-c", `luafile ${script}`], {
      env: { ...process.env, OPB: opb, OPB_DIR: dir, OPB_FILE: file, OPB_OUT: result },
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 0, `nvim failed (${run.status}, ${run.signal}):\n${run.stdout}\n${run.stderr}`);
    const seen = JSON.parse(readFileSync(result, "utf8"));
    assert.equal(seen.error, undefined, seen.error);
    assert.ok(seen.attached, "no diagnostics arrived within 10 s");
    const pb213 = seen.diagnostics.find((d) => d.code === "PB213");
    assert.ok(pb213, `no PB213 among ${JSON.stringify(seen.diagnostics)}`);
    assert.equal(pb213.lnum, 9);
    assert.equal(pb213.col, "    next: ".length);
    assert.equal(pb213.severity, 1, "an error");
    assert.equal(pb213.source, "opb");
    assert.match(pb213.message, /names `gaet`, which is no step of this playbook\. Did you mean `gate`\?/);
    assert.match(pb213.href, /#rules\/PB213$/);
    assert.match(seen.hover ?? "", /^\*\*Step `gate`\*\* \(gate\)/);
    assert.equal(seen.action, "Change to gate");
    assert.equal(seen.line, "    next: gate");
    assert.ok(seen.cleared, "PB213 is still shown after the fix");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
