/*
 * playback.js - plays a list of moves one at a time, like a video: play,
 * pause, single step, five speeds, stop. It knows nothing about boards; it
 * hands each move to onStep and says when it has run out.
 */

/* Milliseconds between moves for speeds 1 (slowest) to 5 (fastest). */
const INTERVALS = [900, 550, 320, 150, 55];
const SPEED_NAMES = ['slowest', 'slow', 'normal', 'fast', 'fastest'];

export function speedName(speed)
{
    return SPEED_NAMES[clampSpeed(speed) - 1];
}

function clampSpeed(speed)
{
    return Math.max(1, Math.min(INTERVALS.length, Math.round(speed) || 3));
}

export class Playback {
    /* onStep(move, index), onDone(), onChange() after any state change. */
    constructor({ onStep, onDone, onChange })
    {
        this.onStep = onStep;
        this.onDone = onDone;
        this.onChange = onChange;
        this.moves = [];
        this.index = 0;
        this.timer = 0;
        this.active = false;
        this.paused = false;
        this.speed = 3;
    }

    get interval()
    {
        return INTERVALS[this.speed - 1];
    }

    /* How long a slide may take at this speed without overlapping the next. */
    get slideMs()
    {
        return Math.min(220, Math.round(this.interval * 0.75));
    }

    get remaining()
    {
        return this.moves.length - this.index;
    }

    start(moves)
    {
        this.stop();
        this.moves = moves.slice();
        this.index = 0;
        this.active = true;
        this.paused = false;
        this.onChange();
        this.schedule();
    }

    setSpeed(speed)
    {
        this.speed = clampSpeed(speed);
        this.onChange();
    }

    pause()
    {
        if (!this.active || this.paused)
            return;
        this.paused = true;
        clearTimeout(this.timer);
        this.onChange();
    }

    resume()
    {
        if (!this.active || !this.paused)
            return;
        this.paused = false;
        this.onChange();
        this.schedule();
    }

    toggle()
    {
        if (this.paused)
            this.resume();
        else
            this.pause();
    }

    /* One move forward; only while paused, so it never races the timer. */
    step()
    {
        if (this.active && this.paused)
            this.advance();
    }

    stop()
    {
        clearTimeout(this.timer);
        const wasActive = this.active;
        this.active = false;
        this.paused = false;
        if (wasActive)
            this.onChange();
    }

    schedule()
    {
        clearTimeout(this.timer);
        /* The first move waits a little so the player sees it coming. */
        const delay = this.index === 0 ? Math.max(250, this.interval) : this.interval;
        this.timer = setTimeout(() => {
            if (this.active && !this.paused && this.advance())
                this.schedule();
        }, delay);
    }

    /* Plays the next move; returns false once there are none left. */
    advance()
    {
        if (this.index >= this.moves.length) {
            this.finish();
            return false;
        }
        const move = this.moves[this.index];
        this.index += 1;
        this.onStep(move, this.index - 1);
        this.onChange();
        if (this.index >= this.moves.length) {
            this.finish();
            return false;
        }
        return true;
    }

    finish()
    {
        this.stop();
        this.onDone();
    }
}
