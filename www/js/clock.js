/*
 * clock.js - the level timer. It starts on the first move, not when the
 * board appears, so looking at the board before playing costs nothing.
 * And how times read: a level's (formatSeconds), the daily countdown's
 * (formatCountdown).
 */

export function formatSeconds(total)
{
    const s = Math.max(0, Math.floor(total));
    const minutes = Math.floor(s / 60);
    const seconds = String(s % 60).padStart(2, '0');
    if (minutes < 60)
        return `${minutes}:${seconds}`;
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${seconds}`;
}

/* A countdown always as HH:MM:SS ("00:53:30"), also under an hour,
 * where formatSeconds gives "53:30". */
export function formatCountdown(total)
{
    const s = Math.max(0, Math.floor(total));
    const two = (n) => String(n).padStart(2, '0');
    return `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

export class Clock {
    constructor(onTick)
    {
        this.onTick = onTick;
        this.startedAt = 0;
        this.elapsedMs = 0;
        this.timer = 0;
    }

    get running()
    {
        return this.timer !== 0;
    }

    get seconds()
    {
        const live = this.running ? performance.now() - this.startedAt : 0;
        return (this.elapsedMs + live) / 1000;
    }

    start()
    {
        if (this.running)
            return;
        this.startedAt = performance.now();
        this.timer = setInterval(() => this.onTick(this.seconds), 250);
        this.onTick(this.seconds);
    }

    stop()
    {
        if (!this.running)
            return;
        this.elapsedMs += performance.now() - this.startedAt;
        clearInterval(this.timer);
        this.timer = 0;
        this.onTick(this.seconds);
    }

    /* A resumed game's time so far; the clock waits for the next move. */
    set(seconds)
    {
        this.reset();
        this.elapsedMs = Math.max(0, seconds) * 1000;
        this.onTick(this.seconds);
    }

    reset()
    {
        clearInterval(this.timer);
        this.timer = 0;
        this.elapsedMs = 0;
        this.onTick(0);
    }
}
