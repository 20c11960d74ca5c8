/*
 * sound.js - short sounds made in the page with Web Audio: a soft tick
 * for a move and a little rising chord for a win. No files, no requests.
 * Off until the player turns it on (browsers also want a click first).
 */

export class Sound {
    constructor(on = false)
    {
        this.on = on;
        this.ctx = null;
    }

    setOn(on)
    {
        this.on = on;
        if (on)
            this.context();
    }

    context()
    {
        if (!this.ctx) {
            const Ctx = window.AudioContext || window.webkitAudioContext;
            if (!Ctx)
                return null;
            this.ctx = new Ctx();
        }
        if (this.ctx.state === 'suspended')
            this.ctx.resume();
        return this.ctx;
    }

    /* One short note: `freq` Hz, starting `at` s from now, `length` s long. */
    note(freq, at, length, volume = 0.08, type = 'sine')
    {
        const ctx = this.context();
        if (!ctx)
            return;
        const t = ctx.currentTime + at;
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = type;
        osc.frequency.setValueAtTime(freq, t);
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(volume, t + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + length + 0.02);
        this.played = (this.played || 0) + 1;
        /* For the browser test: how many notes have sounded. */
        document.documentElement.dataset.notes = String(this.played);
    }

    move()
    {
        if (this.on)
            this.note(660, 0, 0.06, 0.05, 'triangle');
    }

    win()
    {
        if (!this.on)
            return;
        [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => this.note(f, i * 0.09, 0.35, 0.07));
    }
}
