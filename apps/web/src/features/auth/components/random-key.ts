/** A fresh key for one captcha picture or slide puzzle (the server ties the answer to it). */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
