/*
 * ghost.js - "Race the bot": the solver's route for the board, played at
 * a person's pace beside the player's board, from the player's first
 * move; at the finish the card says who was quicker ("You beat the bot
 * by 4 s"). The bot's route is the one the game already asked for (the
 * start board's answer), so the race costs no request. Only its progress
 * shows (moves made of its route), never its tiles: a bot's board to
 * copy from would be a hint in all but name. Not on the daily, whose
 * leaderboard it would tilt.
 */

/* A person's pace: about a move a second, a little quicker. */
export const GHOST_MS_PER_MOVE = 900;

const $ = (id) => document.getElementById(id);

export class Ghost {
    /* on: whether the race is on (the player's setting). */
    constructor(on)
    {
        this.on = on;
        this.timer = 0;
        this.route = null;
        this.token = 0;
    }

    setOn(on)
    {
        this.on = on;
        if (!on)
            this.reset();
    }

    /* A new board, or the same one from its start: no race yet. */
    reset()
    {
        ++this.token;
        clearInterval(this.timer);
        this.timer = 0;
        this.route = null;
        $('ghost').hidden = true;
    }

    /* The player's first move on game's board: the bot sets off with the
       solver's route (once it is known), at GHOST_MS_PER_MOVE a move. */
    async start(game)
    {
        if (!this.on || game.kind === 'daily')
            return;
        this.reset();
        const token = this.token;
        const began = performance.now();
        const info = await game.solverInfo;
        if (token !== this.token || !info || !Array.isArray(info.moves))
            return;
        this.route = { moves: info.moves };
        const total = info.moves.length;
        const show = (i) => {
            $('ghost-progress').max = total;
            $('ghost-progress').value = i;
            $('ghost-count').textContent = i >= total ? `Done: ${total} moves` : `${i} of ${total} moves`;
        };
        $('ghost').hidden = false;
        /* The bot's clock started with the player's first move. */
        let done = Math.min(total, Math.floor((performance.now() - began) / GHOST_MS_PER_MOVE));
        show(done);
        this.timer = setInterval(() => {
            if (done >= total || token !== this.token) {
                clearInterval(this.timer);
                return;
            }
            done += 1;
            show(done);
        }, GHOST_MS_PER_MOVE);
    }

    /* The card's line for result r (the player's seconds), '' with no race. */
    verdict(r)
    {
        if (!this.route || r.bySolver)
            return '';
        const bot = (this.route.moves.length * GHOST_MS_PER_MOVE) / 1000;
        const diff = Math.abs(bot - r.seconds);
        /* Tenths under 10 s (a 3×3 race is often that close), then whole seconds. */
        const gap = diff < 10 ? diff.toFixed(1) : String(Math.round(diff));
        clearInterval(this.timer);
        if (gap === '0.0')
            return `Neck and neck with the bot (${bot.toFixed(1)} s).`;
        return r.seconds < bot ? `You beat the bot by ${gap} s.` :
            `The bot beat you by ${gap} s (its ${this.route.moves.length} moves at a person’s pace: ` +
            `${bot.toFixed(1)} s).`;
    }
}
