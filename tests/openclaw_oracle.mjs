// OpenClaw's own bootstrap builder, run on workspaces for tests/test_openclaw_oracle.py.
// Usage: node openclaw_oracle.mjs NODE_MODULES_DIR < cases.json > results.json
// cases.json: [{"workspace", "session": main|shared|subagent|cron, "config": {...openclaw.json}, "agentId",
//               "today": "YYYY-MM-DD"}]; run with TZ=UTC.
// It calls, from openclaw@2026.9.6's dist/ bundle:
//   loadWorkspaceBootstrapFiles, filterBootstrapFilesForSession          (src/agents/workspace.ts)
//   buildBootstrapContextFiles, resolveBootstrapMaxChars/TotalMaxChars  (src/agents/embedded-agent-helpers/bootstrap.ts)
//   buildSessionStartupContextPrelude (src/auto-reply/reply/startup-context.ts; not exported, so its region's
//   source is evaluated with the helpers it imports).
// One rule is restated rather than called (ensureAgentWorkspace writes to the workspace): a present BOOTSTRAP.md
// is dropped when the workspace looks configured (workspaceProfileLooksConfigured's evidence), an absent one
// is not marked missing (setup complete).
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { pathToFileURL } from "node:url";
import workerThreads from "node:worker_threads";

// node 20 lacks what the bundle's dependencies use at load time
for (const [name, fn] of Object.entries({
  union(o) { return new Set([...this, ...o.keys()]); },
  intersection(o) { return new Set([...this].filter((x) => o.has(x))); },
  difference(o) { return new Set([...this].filter((x) => !o.has(x))); },
  symmetricDifference(o) { const r = new Set(this); for (const x of o.keys()) r.has(x) ? r.delete(x) : r.add(x); return r; },
  isSubsetOf(o) { return [...this].every((x) => o.has(x)); },
  isSupersetOf(o) { return [...o.keys()].every((x) => this.has(x)); },
  isDisjointFrom(o) { return [...this].every((x) => !o.has(x)); },
})) if (!Set.prototype[name]) Object.defineProperty(Set.prototype, name, { value: fn, writable: true, configurable: true });
if (!workerThreads.markAsUncloneable) workerThreads.markAsUncloneable = () => {};

const dist = path.join(process.argv[2], "openclaw", "dist");
const byRegion = (region) => fs.readdirSync(dist).filter((f) => f.endsWith(".mjs"))
  .find((f) => fs.readFileSync(path.join(dist, f), "utf8").includes(`//#region ${region}\n`));
const load = async (region) => [await import(pathToFileURL(path.join(dist, byRegion(region))).href), byRegion(region)];
const exported = (mod, file, name) => {  // the bundle exports under short aliases: find the alias by name
  const m = fs.readFileSync(path.join(dist, file), "utf8").match(new RegExp(`\\b${name} as (\\w+)\\b`));
  return mod[m[1]];
};

const [ws, wsFile] = await load("src/agents/workspace.ts");
const [bs, bsFile] = await load("src/agents/embedded-agent-helpers/bootstrap.ts");
const loadWorkspaceBootstrapFiles = exported(ws, wsFile, "loadWorkspaceBootstrapFiles");
const filterBootstrapFilesForSession = exported(ws, wsFile, "filterBootstrapFilesForSession");
const buildBootstrapContextFiles = exported(bs, bsFile, "buildBootstrapContextFiles");
const resolveBootstrapMaxChars = exported(bs, bsFile, "resolveBootstrapMaxChars");
const resolveBootstrapTotalMaxChars = exported(bs, bsFile, "resolveBootstrapTotalMaxChars");

// buildSessionStartupContextPrelude: its region's text, with the bindings its module imports
const replyFile = byRegion("src/auto-reply/reply/startup-context.ts");
const replySrc = fs.readFileSync(path.join(dist, replyFile), "utf8");
const region = replySrc.split("//#region src/auto-reply/reply/startup-context.ts\n")[1].split("//#endregion")[0];
const imported = {};
for (const m of replySrc.matchAll(/^import \{([^}]*)\} from "\.\/([^"]+)";$/gm)) {
  for (const spec of m[1].split(",")) {
    const [alias, local] = spec.trim().split(/\s+as\s+/);
    if (local && region.includes(local)) imported[local] = [m[2], alias];
  }
}
const scope = { fs, path };
for (const [local, [file, alias]] of Object.entries(imported)) scope[local] = (await import(pathToFileURL(path.join(dist, file)).href))[alias];
const buildSessionStartupContextPrelude = new Function(...Object.keys(scope),
  `${region}\nreturn buildSessionStartupContextPrelude;`)(...Object.values(scope));

const templates = path.join(process.argv[2], "openclaw", "docs", "reference", "templates");
const stripFront = (t) => t.startsWith("---") ? t.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, "").replace(/^\s+/, "") : t;
function looksConfigured(dir) {  // workspaceProfileLooksConfigured's evidence
  if (fs.existsSync(path.join(dir, "memory")) || fs.readdirSync(dir).includes("MEMORY.md")) return true;
  const skills = path.join(dir, "skills");
  if (fs.existsSync(skills) && fs.readdirSync(skills).some((d) => fs.existsSync(path.join(skills, d, "SKILL.md")))) return true;
  return ["SOUL.md", "IDENTITY.md", "USER.md"].some((n) => {
    const p = path.join(dir, n);
    return fs.existsSync(p) && fs.readFileSync(p, "utf8") !== stripFront(fs.readFileSync(path.join(templates, n), "utf8"));
  });
}

const sessionKeys = { main: ["agent:main:main"], shared: ["agent:main:telegram:group:1", "group"],
  subagent: ["agent:main:subagent:x"], cron: ["agent:main:cron:x"] };
const sha = (s) => crypto.createHash("sha256").update(s, "utf8").digest("hex");
const out = [];
for (const c of JSON.parse(fs.readFileSync(0, "utf8"))) {
  const dir = path.resolve(c.workspace);
  const [sessionKey, chatType] = sessionKeys[c.session];
  let files = filterBootstrapFilesForSession(await loadWorkspaceBootstrapFiles(dir), { sessionKey, chatType, workspaceDir: dir });
  files = files.filter((f) => f.name !== "BOOTSTRAP.md" || (!f.missing && !looksConfigured(dir)));
  const agentId = c.agentId ?? "main";
  const built = buildBootstrapContextFiles(files, {
    maxChars: resolveBootstrapMaxChars(c.config, agentId), totalMaxChars: resolveBootstrapTotalMaxChars(c.config, agentId) });
  // the block is given at a session's first run, not to sub-agents, not while BOOTSTRAP.md is pending
  const noBlock = c.session === "subagent" || built.some((f) => path.basename(f.path) === "BOOTSTRAP.md")
    || c.config?.agents?.defaults?.startupContext?.enabled === false;  // shouldApplyStartupContext
  const prelude = noBlock ? null : await buildSessionStartupContextPrelude({ workspaceDir: dir, cfg: c.config,
    nowMs: Date.parse(`${c.today}T12:00:00Z`) });
  out.push({
    files: built.map((f) => ({ name: path.basename(f.path), path: f.path, chars: f.content.length, sha256: sha(f.content) })),
    session_start: prelude === null ? null : { chars: prelude.length, sha256: sha(prelude),
      files: [...prelude.matchAll(/^\[Untrusted daily memory: (.*)\]$/gm)].map((m) => m[1]) },
  });
}
process.stdout.write(JSON.stringify(out));
