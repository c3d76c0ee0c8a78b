"""Sliglube (Saïd Galdseid, 2024), page by page."""

from bot.i18n import N_
from bot.learning.guide import Diagram, Guide, Page

#: A game whose stones make one white loop, and Black's answer far away.
_LOOP = ("e2", "black", "d2", "c5", "d4", "g3", "d3", "d8", "f2", "f3", "e4")

GUIDE = Guide(
    "sliglube",
    (
        Page(
            "goal",
            N_("The goal: stalemate wins"),
            N_("""\
Two players, **Black** and **White**, take turns placing stones of their colour on a \
hexagonal board. Rings of stones, **loops**, flip stones, remove stones and close cells \
around them, so the board fills up in strange ways.

**At the start of your turn, if you have no legal placement, the game ends and you \
win.** You are racing to run out of places to play before your opponent does."""),
            Diagram(
                {"size": 5},
                (
                    "d6",
                    "white",
                    "i4",
                    "g2",
                    "e1",
                    "c3",
                    "b2",
                    "i2",
                    "d7",
                    "h5",
                    "a3",
                    "h2",
                    "a2",
                    "c4",
                    "e9",
                    "h3",
                    "e3",
                    "b4",
                    "d5",
                    "f8",
                    "e8",
                    "f5",
                    "c2",
                    "f4",
                    "a1",
                    "i1",
                    "h1",
                    "f7",
                    "i3",
                    "f2",
                    "d2",
                    "e2",
                    "g5",
                    "f1",
                    "f6",
                    "e9",
                    "b6",
                    "a5",
                ),
                N_("""\
White, to move, has no legal placement left: the game is over, and White wins."""),
            ),
        ),
        Page(
            "loops",
            N_("Loops and control"),
            N_("""\
A **loop** is a ring of six or more stones, of any colours, one stone wide: each of its \
stones touches exactly two others of the ring. (Three stones in a triangle are not a loop.)

You **control** a loop when at least half of its stones are yours; with exactly half each, \
both players control it.

**You may not place next to a loop you control** (inside the ring or outside), nor where \
your stone would end your turn in a loop your opponent controls."""),
            Diagram(
                {"size": 5},
                (*_LOOP, "a1"),
                N_("""\
The six white stones d2, d3, e4, f3, f2 and e2 form a loop around e3, and White controls \
it. White, to move, may not place on the shaded cells next to it."""),
                highlight=("d2", "d3", "e4", "f3", "f2", "e2"),
                ringed=N_("White's loop"),
            ),
        ),
        Page(
            "flips",
            N_("Flips and removals"),
            N_("""\
When your stone closes a new loop that you control:
1. every enemy stone of that loop **flips** to your colour;
2. then every stone of yours that is next to that loop, but not part of it, is \
**removed**.

A loop you close where your opponent has more than half the stones is not allowed: \
your stone would end the turn in their loop."""),
            Diagram(
                {"size": 5},
                _LOOP,
                N_("""\
White's e4 closed the loop d2, d3, e4, f3, f2, e2 with four white stones of six: Black's \
e2 and f3 flipped to white, and White's d4, next to the loop, was removed."""),
            ),
        ),
        Page(
            "noflip",
            N_("Choosing not to flip"),
            N_("""\
Sometimes the removals would cost you a stone that is part of a loop. Then flipping is \
optional: you may play `c3 noflip`, which places the stone and skips the flips and the \
removals altogether. Where nothing of the kind is at stake, you must flip."""),
            Diagram(
                {"size": 5},
                (
                    "b6",
                    "black",
                    "c3",
                    "e3",
                    "d4",
                    "b3",
                    "c2",
                    "e4",
                    "b4",
                    "f8",
                    "d2",
                    "h3",
                    "c6",
                    "e7",
                    "f7",
                    "d5",
                ),
                N_("""\
White's c5 would close the loop b3, b4, c5, d5, d4, c3, which White controls: Black's b3 \
and d5 would flip, and White's c2, c6 and e4 would be removed, though c2 and e4 belong to \
White's other loop. So White may play `c5` or `c5 noflip`."""),
                highlight=("c5",),
                ringed=N_("flip or noflip"),
            ),
        ),
        Page(
            "start",
            N_("The start: pie rule"),
            N_("""\
The first player places a black stone anywhere. Then the second player chooses which \
colour to play, `black` or `white`. That first stone was Black's move, so White plays \
next.

Place the first stone so that neither side is clearly better: the other player picks the \
side they prefer."""),
            Diagram(
                {"size": 5},
                ("e2",),
                N_("""\
The first player placed a black stone on e2; the second player now chooses Black or \
White."""),
            ),
        ),
        Page(
            "notation",
            N_("Playing it here"),
            N_("""\
**Cells**: rows are letters from the bottom row `a`; cells are numbered from the left of \
each row (on base 6: `a1`–`a6` at the bottom, `f1`–`f11` across the middle).

**Moves** with `/move`: `c3` places a stone, `c3 noflip` places it without flipping where \
that is allowed, `black` or `white` for the choice of colour (buttons offer these too). \
Start typing and the bot lists the legal moves.

*Left out:* the original rules add an optional extra removal \"if doing so increases your \
loop's length\"; it says too little to be played the same way by everyone, and the \
designer's later rewrite drops it, so the bot does not offer it."""),
        ),
    ),
    credit="Saïd Galdseid, 2024",
)
