// Runs the Khronos glTF Validator (npm package gltf-validator) over each .glb / .gltf named on the
// command line and prints one JSON object per file on its own line:
//   {"file": ..., "errors": N, "warnings": N, "infos": N, "hints": N, "messages": [...]}
// where messages lists the errors and warnings (code, severity, pointer, message).
// The package is looked up in $MESHSCOPE_GLTF_VALIDATOR (a folder holding node_modules or the
// package itself), the repository's tools/node_modules (setup.sh installs it there), Node's own
// resolution (NODE_PATH included) and npm's global folder. When none has it, prints
// {"missing": "..."} and exits 3, so that callers can skip.
import { createRequire } from "node:module";
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

function loadValidator() {
  const candidates = [];
  const env = process.env.MESHSCOPE_GLTF_VALIDATOR;
  if (env) {
    candidates.push(path.join(env, "node_modules", "gltf-validator"));
    candidates.push(env);
  }
  candidates.push(path.join(here, "..", "..", "tools", "node_modules", "gltf-validator"));
  candidates.push("gltf-validator");
  try {
    const root = execSync("npm root -g", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    if (root) candidates.push(path.join(root, "gltf-validator"));
  } catch {
    // no npm: the other places only
  }
  for (const c of candidates) {
    try {
      return require(c);
    } catch {
      // next
    }
  }
  return null;
}

const validator = loadValidator();
if (!validator) {
  console.log(JSON.stringify({ missing: "gltf-validator (npm install -g gltf-validator)" }));
  process.exit(3);
}

let failed = false;
for (const file of process.argv.slice(2)) {
  try {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      writeTimestamp: false,
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, data) =>
            err ? reject(err.toString()) : resolve(new Uint8Array(data)),
          );
        }),
    });
    const issues = report.issues;
    const messages = issues.messages
      .filter((m) => m.severity <= 1)
      .slice(0, 50)
      .map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer, message: m.message }));
    console.log(
      JSON.stringify({
        file,
        errors: issues.numErrors,
        warnings: issues.numWarnings,
        infos: issues.numInfos,
        hints: issues.numHints,
        validator: report.validatorVersion,
        messages,
      }),
    );
  } catch (e) {
    failed = true;
    console.log(JSON.stringify({ file, failure: String(e) }));
  }
}
process.exit(failed ? 1 : 0);
