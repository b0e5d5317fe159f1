/**
 * Decodes one uploaded picture in its own thread and draws its thumbnail, so neither holds the
 * event loop and what a hostile file makes the decoder allocate goes when the thread ends.
 * WebP is not decoded here (jimp reads PNG, JPEG and GIF): it is answered as it is.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Jimp } from "jimp";

export interface ThumbnailJob {
  data: Uint8Array;
  contentType: string;
  width: number;
}
export type ThumbnailAnswer =
  | { width: number; height: number; thumb: Uint8Array | null; thumbType: string | null }
  | { refused: true };

const port = parentPort;
if (!port) throw new Error("thumbnail.worker.ts runs as a worker thread");
const job = workerData as ThumbnailJob;

async function draw(): Promise<ThumbnailAnswer> {
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength));
  } catch {
    return { refused: true };
  }
  const { width, height } = image;
  if (width <= job.width) return { width, height, thumb: null, thumbType: null };
  image.resize({ w: job.width });
  const thumbType = job.contentType === "image/jpeg" ? "image/jpeg" : "image/png";
  const thumb =
    thumbType === "image/jpeg" ? await image.getBuffer("image/jpeg", { quality: 80 }) : await image.getBuffer("image/png");
  return { width, height, thumb: new Uint8Array(thumb), thumbType };
}

const answer = await draw();
port.postMessage(answer, "thumb" in answer && answer.thumb ? [answer.thumb.buffer as ArrayBuffer] : []);
