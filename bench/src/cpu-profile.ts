import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * A V8 CPU profile of this process over a measured window only (warm-up and seeding left out),
 * written to `file` for a profiler's viewer and summarised as the functions with the most self
 * time, so a bench run says where the time goes without opening a viewer.
 */
export async function startCpuProfile(file: string) {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  return async (top = 20): Promise<string[]> => {
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    const nodes = profile.nodes as ProfileNode[];
    const total = nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0) || 1;
    const self = new Map<string, number>();
    for (const n of nodes) {
      const { functionName, url, lineNumber } = n.callFrame;
      const where = url ? `${url.replace(/^.*\/(node_modules|apps|packages)\//, "$1/")}:${lineNumber + 1}` : "";
      const key = `${functionName || "(anonymous)"} ${where}`.trim();
      self.set(key, (self.get(key) ?? 0) + (n.hitCount ?? 0));
    }
    return [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, hits]) => `${((hits * 100) / total).toFixed(1).padStart(5)} %  ${key}`);
  };
}
