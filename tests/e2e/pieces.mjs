/*
 * pieces.mjs - how alike the pieces of the game's built-in pictures are
 * when a board cuts them n×n (round2's and round3's picture tests).
 */

/* Each piece of a picture cut n×n, as the mean colour of 6×6 patches:
   what the eye compares when two pieces look alike. For each built-in
   picture and each n of sizes, the smallest RMS difference between two
   of its pieces (0 to 255), keyed "id n×n". */
export async function closestPieces(page, sizes)
{
    return page.evaluate(async (sizes) => {
        const { BUILT_IN, pictureUrl } = await import('/js/pictures.js');
        const out = {};
        for (const picture of BUILT_IN) {
            const img = new Image();
            img.src = pictureUrl(picture.id);
            await img.decode();
            const px = img.naturalWidth;
            const canvas = document.createElement('canvas');
            canvas.width = canvas.height = px;
            const ctx = canvas.getContext('2d');
            ctx.drawImage(img, 0, 0);
            const data = ctx.getImageData(0, 0, px, px).data;
            const mean = (x0, y0, w) => {
                const sum = [0, 0, 0];
                let count = 0;
                for (let y = Math.floor(y0); y < Math.floor(y0 + w); y += 2) {
                    for (let x = Math.floor(x0); x < Math.floor(x0 + w); x += 2) {
                        const i = (y * px + x) * 4;
                        sum[0] += data[i];
                        sum[1] += data[i + 1];
                        sum[2] += data[i + 2];
                        count++;
                    }
                }
                return sum.map((v) => v / count);
            };
            for (const n of sizes) {
                const piece = px / n;
                const pieces = [];
                for (let i = 0; i < n * n; i++) {
                    const sig = [];
                    for (let k = 0; k < 36; k++)
                        sig.push(...mean((i % n) * piece + (k % 6) * piece / 6,
                            Math.floor(i / n) * piece + Math.floor(k / 6) * piece / 6, piece / 6));
                    pieces.push(sig);
                }
                let min = Infinity;
                for (let a = 0; a < pieces.length; a++) {
                    for (let b = a + 1; b < pieces.length; b++) {
                        const d = Math.sqrt(pieces[a].reduce((acc, v, z) =>
                            acc + (v - pieces[b][z]) ** 2, 0) / pieces[a].length);
                        min = Math.min(min, d);
                    }
                }
                out[`${picture.id} ${n}×${n}`] = Math.round(min * 10) / 10;
            }
        }
        return out;
    }, sizes);
}
