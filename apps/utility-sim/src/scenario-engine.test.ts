import { describe, expect, it } from "vitest";
import { compressedClock } from "./clock.ts";
import type { UtilityControl } from "./control.ts";
import { RequestLog } from "./request-log.ts";
import { endpointMatches, on, runProcedure } from "./scenario-engine.ts";

/** The engine needs only the clock and the request feed of the utility control. */
function feed(factor: number) {
  const log = new RequestLog();
  const clock = compressedClock({ factor });
  const control = {
    clock,
    onRequest: (l: Parameters<RequestLog["subscribe"]>[0]) => log.subscribe(l),
  } as unknown as UtilityControl;
  const entry = (method: string, path: string, body = "") => ({
    at: clock.now(),
    realAt: Date.now(),
    method,
    path,
    query: "",
    lfdi: "A",
    body,
  });
  const request = (method: string, path: string) => log.receive(entry(method, path));
  return { control, request, log, entry };
}

describe("procedure step engine", () => {
  it("matches `*` to exactly one path segment", () => {
    expect(endpointMatches("/edev/*/der", "/edev/12/der")).toBe(true);
    expect(endpointMatches("/edev/*/der", "/edev/12/der/1")).toBe(false);
    expect(endpointMatches("/mup", "/mup/3")).toBe(false);
  });

  it("fires only enabled steps, runs their actions before enabling the next, and finishes on a wait", async () => {
    const { control, request } = feed(600);
    const seen: string[] = [];
    const running = runProcedure(
      control,
      {
        start: ["A"],
        steps: {
          A: { event: on.get("/dcap"), actions: [() => seen.push("a")], enables: ["B", "END"] },
          B: { event: on.post("/edev") },
          END: { event: on.wait(60), finish: true },
        },
      },
      2_000,
    );
    request("POST", "/edev"); // B is not enabled yet: ignored.
    request("GET", "/dcap");
    const run = await running;
    expect(seen).toEqual(["a"]);
    expect(run.completed.map((s) => s.step)).toEqual(["A", "END"]);
    // B never came after it was enabled: all-steps-complete would fail.
    expect(run.pending).toEqual(["B"]);
  });

  it("completes a served-PUT step only once served and only on a request its check accepts", async () => {
    const { control, log, entry } = feed(600);
    const running = runProcedure(
      control,
      {
        start: ["PUT-100"],
        steps: { "PUT-100": { event: on.putServed("/edev/*/der/*/derg", (_c, r) => r.body.includes(">100<")) } },
      },
      2_000,
    );
    const first = log.receive(entry("PUT", "/edev/1/der/1/derg", "<setGradW>27</setGradW>"));
    log.served(first, 204);
    const second = log.receive(entry("PUT", "/edev/1/der/1/derg", "<setGradW>100</setGradW>"));
    const run = await Promise.race([running, new Promise((r) => setTimeout(r, 20, "waiting"))]);
    expect(run).toBe("waiting"); // received, not yet served
    log.served(second, 204);
    expect((await running).completed.map((s) => s.request?.body)).toEqual(["<setGradW>100</setGradW>"]);
  });

  it("rejects naming the steps still waiting when the real-time bound passes", async () => {
    const { control } = feed(1);
    await expect(runProcedure(control, { start: ["X"], steps: { X: { event: on.get("/tm") } } }, 50)).rejects.toThrow(/X/);
  });
});
