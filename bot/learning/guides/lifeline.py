"""Lifeline (Michael Amundsen & Luis Bolaños Mures, 2022), page by page."""

from bot.i18n import N_
from bot.learning.guide import Diagram, Guide, Page

GUIDE = Guide(
    "lifeline",
    (
        Page(
            "goal",
            N_("The goal"),
            N_("""\
Two players, **Black** and **White**, take turns placing stones of their colour on the \
empty cells of a hexagonal board.

Touching stones of one colour form a **group**. A group stays on the board only while \
it has a **lifeline**: a path of empty cells to *another* group of its colour. A group \
without one is dead and is removed.

**The last player to place a stone wins.** If you have no legal placement on your turn, \
you lose; and once both players have made their first turn, a player left without any \
stone on the board loses at once."""),
            Diagram(
                {"size": 4},
                ("a4 f4", "c5 g4", "g3", "b4", "f5"),
                N_("""\
Black's f5 took the last empty cell next to White's g4. Now no white group can reach \
another, so both are dead and are removed together: White has no stones left, and Black \
wins."""),
            ),
        ),
        Page(
            "lifelines",
            N_("Groups and lifelines"),
            N_("""\
A group is **alive** when one of the empty areas it touches also touches another group \
of its colour. How long the path is does not matter, nor how close the enemy stones are.

So a lone group is always dead: you need at least two groups, linked by empty cells. \
You kill by cutting those links: fill or wall off the empty cells between an enemy group \
and the rest of its colour. A single cell can be the last link."""),
            Diagram(
                {"size": 4},
                ("a1 d4", "a2 b1", "g1", "e5", "f4", "b2"),
                N_("""\
White's b2 took the last empty cell next to Black's a1. With no empty path to another \
black group, a1 was dead and was removed (the pale ghost)."""),
                highlight=("a1",),
                ringed=N_("dead, removed"),
            ),
        ),
        Page(
            "turn",
            N_("A turn"),
            N_("""\
On your turn:
1. Place a stone of your colour on any empty cell.
2. Remove every dead **enemy** group, all at once.
3. Then look again, and remove every dead group of **your own**.

The order matters: the enemy stones removed in step 2 leave empty cells behind, which \
can give your own groups the lifeline they lacked a moment before."""),
            Diagram(
                {"size": 3},
                ("b2 c5", "b3 e2", "b1", "a2", "a3", "c3", "d1", "c1", "e1", "d3", "c2"),
                N_("""\
Black's c2 joined a black group with no lifeline at all. But enemy groups go first: \
White's c1 had no empty neighbour, so no white group could reach another, and every \
white stone was removed. Then Black's groups share the empty cells and live, and White, \
with no stones left, has lost."""),
                highlight=("c2",),
                ringed=N_("Black's stone, no lifeline"),
            ),
        ),
        Page(
            "change",
            N_("The board must change"),
            N_("""\
The board at the end of your turn must differ from the board at its start. So you may \
not place a stone that would simply be removed again, killing nothing.

But a placement that kills an enemy group is legal even if your own stone dies with it: \
the board changed. With `/board marks:True` the bot shows where you may place."""),
            Diagram(
                {"size": 4},
                ("a2 b1", "d4 g4", "e1", "f2", "b2"),
                N_("""\
White may place on every cell with a diamond, but not on a1: a stone there would have no \
empty neighbour, would be removed at once, kill nothing, and leave the board as it was."""),
                highlight=("a1",),
                ringed=N_("no empty neighbour"),
                hints=True,
            ),
        ),
        Page(
            "openings",
            N_("Openings"),
            N_("""\
Moving first is a big advantage, so a game starts with one of three openings (the \
`opening` option of `/challenge`):
- **Strong pie** (the default): each player's first turn places *two* stones. On White's \
first turn, White may instead **swap**: the players exchange colours, the board stays, and \
the new White makes White's first turn.
- **Weak pie**: one stone per turn from the start, and White may swap after Black's first \
stone. Dead groups are only removed once four stones are on the board.
- **Komi pie**: the first player chooses a komi (a number of spare turns for White), then \
the second player chooses a colour. After the first four stones, White may spend a point of \
komi instead of placing (`pass`)."""),
            Diagram(
                {"size": 4},
                ("c2 e4",),
                N_("""\
Black's first turn placed two stones. White may now place two stones, or swap and take \
over Black's position."""),
            ),
        ),
        Page(
            "notation",
            N_("Playing it here"),
            N_("""\
**Cells**: rows are letters from the bottom row `a`; cells are numbered from the left of \
each row (on base 7: `a1`–`a7` at the bottom, `g1`–`g13` across the middle).

**Moves** with `/move`: `c3` places a stone, `c3 e5` the two stones of a first turn; \
`swap`, `komi 4`, `black` or `white` and `pass` in the openings (buttons offer them too). \
Start typing and the bot lists the legal moves."""),
        ),
    ),
    credit="Michael Amundsen & Luis Bolaños Mures, 2022",
)
