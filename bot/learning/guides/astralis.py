"""Astralis (Phil Leduc, 2021), page by page."""

from bot.i18n import N_
from bot.learning.guide import Diagram, Guide, Page

GUIDE = Guide(
    "astralis",
    (
        Page(
            "goal",
            N_("The goal"),
            N_("""\
Two players, **Yellow** and **Cyan**, each fly a pawn (a colony ship) over a hexagonal \
board and place stones (planets). Every cell is **controlled** through the stones on and \
around it.

The game ends as soon as every cell is **explored**: it holds a stone or is next to one. \
Each player then scores the cells they control; Cyan, who moves second, adds a komi of \
3.5. **The higher score wins**; there are no draws."""),
            Diagram(
                {"size": 7},
                (
                    "a6",
                    "m4",
                    "c8 c9",
                    "l4 l3",
                    "c6 d7",
                    "d1",
                    "b5 b4",
                    "l4 l5",
                    "c6",
                    "h8 i7",
                    "c2 d3",
                    "h6 g6",
                    "e2 d1",
                    "h3 h4",
                    "e5 d5",
                    "h12",
                    "e7 f8",
                    "k9",
                    "e11",
                    "j10 j9",
                    "g11 f11",
                    "l8 l7",
                    "b6 b7",
                    "h12 g13",
                    "g11",
                    "h1 i1",
                    "g12 h11",
                    "c2",
                    "c8",
                    "f2 f3",
                    "c5",
                    "b2 a1",
                    "g9",
                    "f2 g2",
                    "g10",
                    "j3 j4",
                    "h10 h9",
                    "k3 k2",
                ),
                N_("""\
Every cell is explored, so the game is over: Cyan controls 65 cells and with the komi \
scores 68.5, against Yellow's 56. Cyan wins."""),
            ),
        ),
        Page(
            "turn",
            N_("A turn"),
            N_("""\
First each player puts their pawn on their home edge, not in a corner (Yellow the bottom \
row, Cyan the top row). Then, each turn:
1. **Move your pawn** (you must): in a straight line in one of the six directions, as far \
as you like, over empty cells and your own stones, never over an enemy stone or pawn, and \
stopping on a cell with no stone.
2. **Place a stone** (you may): on a cell next to your pawn that is empty and next to no \
stone at all. Stones never touch.
3. Captures and bonuses follow by themselves (next pages)."""),
            Diagram(
                {"size": 7},
                ("a5", "m3", "g5 g6"),
                N_("""\
Cyan's pawn can go to every triangle; after that, a cyan stone may go on a diamond next \
to where the pawn stops. Nothing may go next to Yellow's stone at g6."""),
                hints=True,
            ),
        ),
        Page(
            "control",
            N_("Control"),
            N_("""\
A cell with your stone is yours. An empty cell is yours when it is next to your stones \
only. An empty cell next to stones of both colours is **contested**: it counts for \
nobody. Cells next to no stone are unexplored.

Pawns never count: they only carry the stones."""),
            Diagram(
                {"size": 7},
                ("a5", "m3", "g5 g6", "h3 h4"),
                N_("""\
The cells shaded yellow are Yellow's, those shaded cyan are Cyan's. g5 and h5 touch \
stones of both colours: they are contested (×)."""),
                highlight=("g5", "h5"),
                ringed=N_("contested"),
            ),
        ),
        Page(
            "captures",
            N_("Captures"),
            N_("""\
After your move, every **enemy** stone whose neighbours are all contested is captured: \
it flips to your colour, and the cells around it become yours.

So a stone surrounded at a distance by enemy stones is in danger: each enemy stone two \
cells away contests the cells in between."""),
            Diagram(
                {"size": 7},
                ("a6", "m5", "a4 b4", "j8 j9", "i10 i11", "g11 g12"),
                N_("""\
Cyan's stone on g12 made the last free neighbour of Yellow's i11 contested: i11 was \
captured (×) and is now cyan."""),
            ),
        ),
        Page(
            "bonus",
            N_("Bonus stones"),
            N_("""\
Then every empty cell that is next to no stone, and whose neighbours are all controlled \
by the same player, gets a **bonus stone** of that player, for free.

Captures and bonuses repeat until nothing changes. A bonus does not go under its owner's \
own pawn."""),
            Diagram(
                {"size": 7},
                ("a6", "m3", "d9 c8", "i7 h8", "b7 b6"),
                N_("""\
Yellow's stone on b6 made every neighbour of a7 Yellow's, and a7 is next to no stone: \
Yellow got a bonus stone there."""),
            ),
        ),
        Page(
            "deferred",
            N_("Deferred bonus"),
            N_("""\
If a cell earns a bonus stone while the **opponent's** pawn stands on it, the stone waits: \
it is put down the moment that pawn leaves, at the start of its owner's next turn, before \
they place their own stone. Until then the cell counts for nobody."""),
            Diagram(
                {"size": 7},
                (
                    "a2",
                    "m6",
                    "a3 a2",
                    "j9 j10",
                    "a5 a6",
                    "e7 e8",
                    "h4 g5",
                    "h9 i8",
                    "d1 e2",
                    "h2 h3",
                    "b1 c1",
                    "h9 h10",
                    "f1 g1",
                    "h5",
                    "h2 i1",
                    "k5 j6",
                    "l2 m1",
                    "k1",
                    "k3 j3",
                ),
                N_("""\
k1 has earned a yellow bonus stone, but Cyan's pawn stands on it (the ring): the stone \
will be put down as soon as the pawn moves away."""),
            ),
        ),
        Page(
            "notation",
            N_("Playing it here"),
            N_("""\
**Cells**: rows are letters from the bottom row `a` (Yellow's home edge); cells are \
numbered from the left of each row (on base 8: `a1`–`a8` at the bottom, `h1`–`h15` \
across the middle).

**Moves** with `/move`: `a4` puts the pawn on its home edge at the start; then `d4` moves \
the pawn to d4, `d4 e5` moves it and places a stone on e5, and `pass` is only for a pawn \
that cannot move. Start typing and the bot lists the legal moves.

There is no pie: the challenge says who plays Yellow, who moves first."""),
        ),
    ),
    credit="Phil Leduc, 2021",
)
