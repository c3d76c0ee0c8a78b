"""Playing whole games against the real bot through the fake Discord, the way
members do: /challenge, the Accept button, /move, decision buttons, number forms.
After every move it checks what a member would: a new board post in the game's
thread, with a PNG that decodes, pinging exactly the player to move (both players
once the game is over)."""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

import rules
from tests.fakediscord import Channel, FakeDiscord, Interaction, Member, Message, text_inputs
from tests.fakediscord.models import Role, snowflake
from tests.timing import seconds

#: Generous for a loaded CI machine (a healthy run answers in milliseconds), and scaled
#: to a slower one (tests/timing.py).
WAIT = seconds(15.0)

# A short complete game of each, found by seeded random play (seed -> plies at the time of
# writing: asli 6, lifeline 4, sliglube 41, astralis 41); any complete game would do.
PLANS: dict[str, tuple[dict[str, Any], int]] = {
    "asli": ({"size": 5}, 225),
    "lifeline": ({"size": 3}, 32),
    "sliglube": ({"size": 5}, 4),
    "astralis": ({"size": 7}, 111),
}


def planned_moves(game: str, options: dict[str, Any], seed: int) -> list[str]:
    """A complete game: legal moves picked by a seeded generator until it is over."""
    rng = random.Random(seed)
    state = rules.get_game(game).new(**options)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    return moves


def decode_png(message: Message) -> Image.Image:
    data = message.attachment(".png").data
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.width > 0 and image.height > 0
    return image


@dataclass
class Table:
    """One game in progress: its thread, its seats and the position members expect."""

    fake: FakeDiscord
    game: str
    seats: tuple[Member, Member]
    thread: Channel
    state: rules.State
    posts: list[Message] = field(default_factory=list)
    #: The /move interactions played, in order.
    commands: list[Interaction] = field(default_factory=list)

    @property
    def to_move(self) -> Member:
        assert self.state.to_move is not None
        return self.seats[self.state.to_move]

    @property
    def waiting(self) -> Member:
        assert self.state.to_move is not None
        return self.seats[1 - self.state.to_move]

    def check_post(self, post: Message, *, answered: bool = False) -> None:
        decode_png(post)
        assert not post.ephemeral
        if self.state.is_over:
            assert "Game over" in post.content and (self.state.result or "") in post.content
            return  # who the final post pings is checked by check_final_ping
        # the player to move, unless that is the bot itself (a practice game): it is
        # pinged by nobody, its typing indicator shows it thinking; nor is a member whose
        # conditional reply (``answered``) follows at once
        expected = set() if self.to_move.user.bot or answered else {self.to_move.id}
        assert post.pinged == expected, (post.content, post.pinged, self.to_move.id)

    def check_final_ping(self) -> None:
        """The last post tells both players the game is over."""
        final = self.posts[-1]
        assert final.pinged == {s.id for s in self.seats if not s.user.bot}, (
            f"the final post pings {final.pinged or 'nobody'}, not both players: a ping needs "
            f"<@id> in the content, allowed_mentions alone notifies nobody\n{final.content}"
        )

    @property
    def home(self) -> Channel:
        """Where the game's commands are used: its thread, unless that is archived or gone
        (then the channel, where the member's only game is implied)."""
        t = self.thread
        if t.is_thread and (t.archived or t.deleted):
            assert t.parent is not None
            return t.parent
        return t

    async def next_post(self, mark: int) -> Message:
        """The next board post: in the thread, or wherever the bot had to move the game."""
        parent = self.thread.parent or self.thread
        places = [parent, *[c for c in self.fake.channels.values() if c.parent is parent]]

        def find() -> Message | None:
            posts = [m for c in places for m in self.fake.posts(c, after=mark) if m.attachments]
            return min(posts, key=lambda m: m.seq) if posts else None

        post = await self.fake.wait_until(find, WAIT, f"the board after move {self.state.ply + 1}")
        self.thread = post.channel
        return post

    def decision_for(self, move: str) -> tuple[rules.Decision, str | None] | None:
        """The decision of the position that plays ``move``, and the number to type in
        its form (None for a button that plays the move itself)."""
        for decision in self.state.decisions():
            if decision.move == move:
                return decision, None
            number = decision.number
            if number is not None:
                head, _, tail = number.template.partition("{}")
                typed = move[len(head) : len(move) - len(tail)]
                if (
                    move.startswith(head)
                    and move.endswith(tail)
                    and typed.isdigit()
                    and number.move(int(typed)) == move
                ):
                    return decision, typed
        return None

    async def play(
        self,
        move: str,
        *,
        prefer_buttons: bool = True,
        typed: bool = True,
        answered: bool = False,
    ) -> Message:
        """The player to move plays ``move``: with the post's button when the game offers
        it as a decision (a button, or a number asked for in a form), else with /move in
        the thread (``typed``: into its autocomplete first, as members do). ``answered``:
        the other's conditional moves answer it (its board pings nobody)."""
        fake, mover, last = self.fake, self.to_move, self.posts[-1]
        mark = fake.mark()
        labels = {b.get("label", ""): b for b in last.buttons if not b.get("disabled")}
        found = self.decision_for(move) if prefer_buttons else None
        if found is not None and found[0].label in labels and found[1] is None:
            click = await fake.click(mover, last, custom_id=labels[found[0].label]["custom_id"])
            await click.reply(WAIT)
        elif found is not None and found[0].label in labels:
            opened = await fake.click(mover, last, custom_id=labels[found[0].label]["custom_id"])
            field_id = text_inputs(await opened.modal(WAIT))[0]["custom_id"]
            submitted = await fake.submit_modal(mover, opened, {field_id: found[1]})
            answer = await submitted.reply(WAIT)
            assert answer.ephemeral, answer.content
        else:
            if typed:  # typing the move first, as a member does: the bot must offer it
                choices = await fake.autocomplete(
                    mover, "move", {"move": move}, "move", channel=self.home, timeout=WAIT
                )
                assert move in [c["value"] for c in choices], (move, choices)
            ix = await fake.run_command(mover, "move", {"move": move}, channel=self.home)
            answer = await ix.reply(WAIT)
            assert answer.ephemeral and "You played" in answer.content, answer.content
            self.commands.append(ix)
        post = await self.next_post(mark)
        self.state = self.state.play(move)
        played = self.state.history[-1]  # a colour choice is said in words
        assert f"`{played}`" in post.content or f" chose {played}." in post.content, (
            move,
            post.content,
        )
        self.check_post(post, answered=answered)
        self.posts.append(post)
        return post


async def post_challenge(
    fake: FakeDiscord,
    channel: Channel,
    challenger: Member,
    opponent: Member,
    game: str,
    options: dict[str, Any],
) -> Message:
    """``challenger`` runs /challenge against ``opponent``, who will move second: told
    privately where it is, the challenge message appears in the channel."""
    mark = fake.mark()
    ix = await fake.run_command(
        challenger,
        "challenge",
        {"game": game, "opponent": opponent, **options, "first": "challenger"},
        channel=channel,
    )
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and "is posted" in answer.content, answer.content
    challenge = await fake.wait_for_message(
        channel,
        lambda m: bool(m.buttons) and opponent.mention in m.content,
        after=mark,
        timeout=WAIT,
    )
    assert not challenge.ephemeral and challenge.pinged == {opponent.id}
    assert f"/{channel.id}/{challenge.id}" in answer.content  # its link
    return challenge


async def accept(
    fake: FakeDiscord,
    challenge: Message,
    challenger: Member,
    opponent: Member,
    game: str,
    options: dict[str, Any],
) -> Table:
    """``opponent`` clicks Accept; the game opens in a thread on the challenge message."""
    mark = fake.mark()
    click = await fake.click(opponent, challenge, label="Accept")
    await click.reply(WAIT)
    assert "Accepted" in challenge.content and not challenge.buttons
    thread = fake.channels[challenge.id]  # a thread started from the challenge message
    assert thread.is_thread and thread.parent is challenge.channel
    post = await fake.wait_for_message(
        thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    table = Table(fake, game, (challenger, opponent), thread, rules.get_game(game).new(**options))
    table.check_post(post)
    table.posts.append(post)
    return table


async def start_game(
    fake: FakeDiscord,
    channel: Channel,
    challenger: Member,
    opponent: Member,
    game: str,
    options: dict[str, Any],
) -> Table:
    challenge = await post_challenge(fake, channel, challenger, opponent, game, options)
    return await accept(fake, challenge, challenger, opponent, game, options)


# -- competitions: tournaments, leagues and ladders played by scripted members ------------

#: Discord's Manage Server permission bit.
MANAGE_GUILD = 1 << 5
#: The quickest game to script: a few plies, no decision buttons at its start.
QUICK_GAME, QUICK_OPTIONS = "lifeline", {"size": 3}
_GAME_THREAD = re.compile(r"#(\d+) · (.+) vs (.+)$")


def grant_manage_server(member: Member) -> None:
    """``member`` gets a role with Manage Server (sent with each interaction)."""
    role = Role(id=snowflake(), name="moderators", permissions=MANAGE_GUILD, position=1)
    member.guild.roles.append(role)
    member.roles.append(role)


@dataclass(frozen=True)
class GameThread:
    """A game's thread as members see it: ``Lifeline #12 · Ana vs Bo``."""

    thread: Channel
    game_id: int
    seats: tuple[str, str]

    @property
    def over(self) -> bool:
        return any("Game over" in m.content for m in self.thread.visible_messages())


def game_threads(fake: FakeDiscord, channel: Channel) -> list[GameThread]:
    """Every game thread opened from ``channel``, oldest first."""
    found = []
    for c in sorted(fake.channels.values(), key=lambda c: c.id):
        if c.is_thread and c.parent is channel:
            match = _GAME_THREAD.search(c.name)
            if match:
                found.append(GameThread(c, int(match[1]), (match[2], match[3])))
    return found


def open_games(fake: FakeDiscord, channel: Channel) -> list[GameThread]:
    return [g for g in game_threads(fake, channel) if not g.over]


async def resign_game(fake: FakeDiscord, member: Member, game: GameThread) -> None:
    """``member`` resigns the game (/resign, then Yes) and its final post appears."""
    ix = await fake.run_command(member, "resign", {}, channel=game.thread)
    confirm = await ix.reply(WAIT)
    await (await fake.click(member, confirm, label="Yes, resign")).reply(WAIT)
    await fake.wait_until(lambda: game.over, WAIT, f"the end of game #{game.game_id}")


async def run_out_of_time(database: str, game_ids: list[int]) -> None:
    """The players to move in these games ran out of time four days ago, as far as the
    bot's database says (the bot's clocks read it again within PROCESS_LEASE_SECONDS)."""
    from datetime import UTC, datetime, timedelta

    from bot.storage import open_database
    from bot.storage.rows import stamp

    long_ago = stamp(datetime.now(UTC) - timedelta(days=4))
    db = await open_database(database)
    try:
        async with db.transaction() as tx:
            for game_id in game_ids:
                await tx.change(
                    "UPDATE clocks SET turn_started_at = ?, due_at = ? WHERE game_id = ?",
                    (long_ago, long_ago, game_id),
                )
    finally:
        await db.close()


async def command_reply(
    fake: FakeDiscord, member: Member, name: str, options: dict[str, Any], channel: Channel
) -> Message:
    """``member`` runs ``/name`` (a subcommand: ``"tournament join"``): the bot's answer."""
    ix = await fake.run_command(member, name, options, channel=channel)
    return await ix.reply(WAIT)
