"""Asli (Luis Bolaños Mures, 2023), page by page."""

from bot.i18n import N_
from bot.learning.guide import Diagram, Guide, Page

GUIDE = Guide(
    "asli",
    (
        Page(
            "goal",
            N_("The goal"),
            N_("""\
Two players, **Black** and **White**, place stones on the points of a square grid, and \
captured stones go to a **prison** beside the board.

On your turn you either place a stone or **Hold** (release a prisoner, see later). Stones \
that touch along the lines form **groups**, and a group needs a free path to another group \
of its colour to stay on the board.

**The last player able to act wins**: if on your turn you can neither place a stone nor \
Hold, you lose. A placement that brings back an earlier position (with the same player to \
move) ends the game in a draw."""),
            Diagram(
                {"size": 5},
                ("komi 2", "white", "a2", "d5", "e5", "e4"),
                N_("""\
White's e4 shut in Black's e5, and Black's a2, left alone, died with it. Black has had two \
groups, so a single black group cannot live: every placement is illegal, and the prison \
holds no white stone to Hold. Black cannot act: White wins."""),
            ),
        ),
        Page(
            "life",
            N_("Groups and life"),
            N_("""\
A group is **alive** while a path of empty points, along the lines, leads from it to \
another group of its colour. Dead groups of the enemy go to the prison.

One exception at the start: until a colour has had two groups on the board at once, its \
single group lives anyway. From then on, a colour needs at least two groups, linked by \
empty points."""),
            Diagram(
                {"size": 7},
                ("komi 3", "white", "f2", "g2", "e1", "e7", "g3"),
                N_("""\
Black's g3 shut White's g2 in the corner: its empty points g1 and f1 lead to no other \
white group. White's e7 was then alone, and White has had two groups: both white groups \
were captured (×) and went to the prison."""),
                highlight=("g1", "f1"),
                ringed=N_("White's last empty points"),
            ),
        ),
        Page(
            "turn",
            N_("A turn"),
            N_("""\
On your turn, do one of two things:
- **Place** a stone on an empty point. Every dead enemy group then goes to the prison. \
The placement is illegal if, after those captures, any group of yours is dead.
- **Hold**, if the prison holds an enemy stone (next page).

Black moves first, then turns alternate. With `/board marks:True` the bot shows where you \
may place."""),
            Diagram(
                {"size": 7},
                ("komi 3", "black", "f1", "c4", "e2", "c7"),
                N_("""\
Black may place on every point with a diamond, but not on e1 or f2: either would join \
Black's two groups into one, and a colour that has had two groups cannot live as one."""),
                highlight=("e1", "f2"),
                ringed=N_("would join two groups"),
                hints=True,
            ),
        ),
        Page(
            "prison",
            N_("The prison and Hold"),
            N_("""\
Captured stones go to the **prison**. After every capture, pairs of one black and one \
white stone leave it, so it only ever holds stones of one colour.

Each enemy stone in the prison is a **Hold** for you: instead of placing, you may release \
one and end your turn (`hold`). Holds are spare turns: when the board gets tight, the \
player with Holds left can wait for the other to run out of moves."""),
            Diagram(
                {"size": 7},
                ("komi 3", "white", "f2", "g2", "e1", "e7", "g3", "hold"),
                N_("""\
After the captures of the previous page, one black stone was left in the prison. White \
spent it as a Hold: the prison is empty, and the board did not change."""),
            ),
        ),
        Page(
            "incursion",
            N_("The minimal incursion"),
            N_("""\
A **territory** is a set of connected empty points; a player **owns** it when only their \
stones touch it. An **incursion** is a placement in a territory the opponent owns, and it \
is **minimal** when it kills exactly one living enemy group.

You may not answer a minimal incursion with another one straight away: place elsewhere \
or Hold first. This stops two players from taking the same stones back and forth."""),
            Diagram(
                {"size": 5},
                ("komi 10", "black", "c5", "d2", "d1", "c1", "e2", "e1"),
                N_("""\
White's e1, in Black's territory, killed exactly one black group (d1): a minimal \
incursion. Black may not answer at d1 at once, which would kill White's e1 in the same \
way."""),
                highlight=("d1",),
                ringed=N_("the group White killed"),
            ),
        ),
        Page(
            "start",
            N_("The start: komi and colours"),
            N_("""\
Black moves first, which is an advantage. To balance it, the first player puts some \
black stones in the prison before the game: the **komi** (`komi 3`), each one a Hold for \
White. Then the second player chooses which colour to play (`black` or `white`).

A larger komi makes White stronger, so the first player has every reason to choose a \
fair one: the other player takes the better side."""),
            Diagram(
                {"size": 5},
                ("komi 3",),
                N_("""\
The first player chose a komi of 3: three black stones wait in the prison. The second \
player now chooses Black or White."""),
            ),
        ),
        Page(
            "notation",
            N_("Playing it here"),
            N_("""\
**Points**: columns are letters from the left (`a`, `b`, … with no letter skipped), rows \
are numbers from the bottom: `a1` is the bottom-left point.

**Moves** with `/move`: `c3` places a stone, `hold` spends a Hold, `komi 3` and `black` \
or `white` at the start (buttons offer these too). Start typing and the bot lists the \
legal moves."""),
        ),
    ),
    credit="Luis Bolaños Mures, 2023",
)
