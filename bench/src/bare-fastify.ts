/** The ceiling: a bare Fastify answering a small envelope, run in its own process. */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ code: 0, msg: "success", data: { status: "ok" } }));
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
