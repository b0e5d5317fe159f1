/**
 * After `npm ci` (postinstall): says which Node will run the console, or stops the install when the
 * pinned Node is not the one npm scripts run. npm itself may run on an older Node; its engine
 * warnings about that Node are not shown (.npmrc), this check stands in for them.
 */
import { nodeProblem, pinnedNode, readManifest } from "./pinned-node.ts";

const manifest = readManifest();
const problem = nodeProblem(process.version, manifest);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
process.stdout.write(`ESS Console will run on Node ${pinnedNode(manifest)} (pinned by the \`node\` package).\n`);
