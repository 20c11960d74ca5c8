/*
 * clock.js - the level timer. It starts on the first move, not when the
 * board appears, so looking at the board before playing costs nothing.
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
