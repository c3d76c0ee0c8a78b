"""Every slash command with hostile option values (empty and blank strings, 100
characters of garbage, unicode, mentions, huge and negative numbers, game numbers
like #0, #-1 and #99999999999999999999, the number of a game of another server),
and every autocomplete typed into with them: each gets a polite answer in time,
only the member sees it, nothing in the database changes, and the bot logs no
traceback."""

from __future__ import annotations

import random
import sqlite3
import string
from typing import Any

from tests.fakediscord import Member
from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import WAIT, start_game

rng = random.Random(20261121)
GARBAGE = "".join(rng.choice(string.printable.strip()) for _ in range(100))
HOSTILE_TEXT = [
    "",
    " ",
    "\u200b",
    "#0",
    "#-1",
    "#99999999999999999999",
    "99999999999999999999",
    "-1",
    "0",
    GARBAGE,
    "ñ" * 100,
    "🎲♟️" * 20,
    "Ａｓｌｉ",
    "<@1> @everyone @here",
    "`'; DROP TABLE games; --",
    "komi 99999999999999999999",
    "komi -1",
    "swap swap",
    "\n\t",
    "lifeline",
    "a1" * 50,
]
HOSTILE_INTS = [0, -1, 1, 2**53 - 1, -(2**53 - 1), 100000, 99999]
#: Valid values for the required options, so that the hostile one is what is judged.
REQUIRED = {"game": "lifeline", "move": "a1"}
APOLOGY = "Sorry, something went wrong"


def snapshot(botproc: BotProcess) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the bot stores, but the bookkeeping of its background work: the clocks'
    (their dispatcher runs), the outbox's lane leases (let go just after a post is done)
    and the process registry's heartbeat (a lease renewed every few seconds), and the
    languages last seen (each interaction's locale, remembered for DMs)."""
    with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                " AND name NOT IN ('clocks', 'lane_leases', 'processes', 'shard_leases',"
                " 'guild_locales', 'member_locales')"
            )
        ]
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}


def commands(fake: Any, world: World) -> list[dict[str, Any]]:
    """Every command members can run, a group's subcommands each as one of its own
    (``tournament create``), as Discord's client sends them."""
    found = []
    for command in fake.commands_for(world.guild):
        subs = [o for o in command.get("options") or [] if o["type"] == 1]
        if not subs:
            found.append(command)
        found += [{**sub, "name": f"{command['name']} {sub['name']}"} for sub in subs]
    return found


def required(option: dict[str, Any], members: list[Member]) -> Any:
    """A plausible value of a required option: a member for a member option (/h2h), a
    game and a move by name, else the first of its choices or a small one of its type."""
    if option["type"] == 6:
        return members[-1]
    if option["name"] in REQUIRED:
        return REQUIRED[option["name"]]
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {3: "c3, d4", 4: 1, 10: 1}[option["type"]]


def hostile_runs(command: dict[str, Any], members: list[Member]) -> list[dict[str, Any]]:
    """Option sets for one command: the required options valid, one option hostile."""
    options = command.get("options") or []
    base = {
        o["name"]: required(o, members) if not o.get("choices") else o["choices"][0]["value"]
        for o in options
        if o.get("required")
    }
    runs = []
    for option in options:
        if option.get("choices") or option["type"] in (5, 11):
            continue  # Discord only sends one of the choices; booleans; files
        values: list[Any] = {3: HOSTILE_TEXT, 4: HOSTILE_INTS, 6: members}.get(option["type"], [])
        for value in values:
            runs.append({**base, option["name"]: value})
    return runs or ([] if options else [base])  # only choices (/vacation, /notify): nothing


async def test_hostile_options_get_polite_private_answers(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    elsewhere = fake.add_guild("Elsewhere")
    dave, erin = fake.add_member(elsewhere, "dave"), fake.add_member(elsewhere, "erin")
    other = await start_game(
        fake, fake.add_text_channel(elsewhere, "games"), dave, erin, "lifeline", {"size": 3}
    )  # game #1, in another server
    await other.play(other.state.legal_moves()[-1])
    mine = await start_game(fake, world.channel, alice, bob, "astralis", {"size": 7})  # #2
    await mine.play("a6")
    await start_game(fake, world.channel, alice, carol, "astralis", {"size": 7})  # #3
    HOSTILE_TEXT.extend(["#1", "1", "Lifeline #1"])  # the other server's game
    robot = fake.guilds[world.guild.id].members[fake.bot_user.id]

    before = snapshot(botproc)
    answered = 0
    for command in commands(fake, world):
        places = [world.channel, mine.thread] if command["name"] == "move" else [world.channel]
        for options in hostile_runs(command, [robot, carol]):
            for place in places:
                try:
                    ix = await fake.run_command(alice, command["name"], options, channel=place)
                except ValueError:
                    continue  # Discord's client would not send it (length, range)
                reply = await ix.reply(WAIT)
                answer = (
                    reply
                    if reply.content or reply.embeds or reply.attachments
                    else await ix.followup(0, WAIT)
                )
                what = (command["name"], options, answer.content)
                assert ix.response_delay is not None and ix.response_delay < seconds(3), what
                assert APOLOGY not in answer.content, what
                if not answer.ephemeral and "not rated" in answer.content:
                    # the bot named as the opponent: a practice game, started at once
                    assert command["name"] in ("challenge", "practice"), what
                    before = snapshot(botproc)
                elif "is posted" in answer.content:  # a challenge that was valid after all
                    assert command["name"] == "challenge" and answer.ephemeral, what
                    message_id = int(answer.content.rsplit("/", 1)[1])
                    [posted] = [m for m in place.visible_messages() if m.id == message_id]
                    await (await fake.click(alice, posted, label="Cancel")).reply(WAIT)
                    before = snapshot(botproc)
                elif "Your seek" in answer.content:  # a seek that was valid after all
                    assert command["name"] == "seek create" and answer.ephemeral, what
                    withdrawn = await fake.run_command(alice, "seek cancel", {}, channel=place)
                    assert "Cancelled" in (await withdrawn.reply(WAIT)).content, what
                    before = snapshot(botproc)
                else:
                    assert answer.ephemeral, what
                assert answer.pinged == set(), what
                answered += 1
                assert snapshot(botproc) == before, what
    assert answered > 300
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]


async def test_hostile_typing_into_autocompletes(world: World, botproc: BotProcess) -> None:
    fake, alice = world.fake, world.alice
    mine = await start_game(fake, world.channel, alice, world.bob, "lifeline", {"size": 3})
    asked = 0
    for command in commands(fake, world):
        base = {
            o["name"]: required(o, [world.bob])
            for o in command.get("options") or []
            if o.get("required") and not o.get("choices")
        }
        for option in command.get("options") or []:
            if not option.get("autocomplete"):
                continue
            for text in HOSTILE_TEXT:
                for place in (world.channel, mine.thread):
                    choices = await fake.autocomplete(
                        alice,
                        command["name"],
                        {**base, option["name"]: text},
                        option["name"],
                        channel=place,
                        timeout=WAIT,
                    )
                    assert len(choices) <= 25
                    asked += 1
    assert asked > 100
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]


async def test_every_string_option_at_its_longest(world: World, botproc: BotProcess) -> None:
    """Discord lets a member send each string option at its maximum length (6,000
    characters unless the command says less): every one gets a polite private answer,
    short enough to be a Discord message."""
    fake, alice = world.fake, world.alice
    await start_game(fake, world.channel, alice, world.bob, "lifeline", {"size": 3})
    answered = 0
    for command in commands(fake, world):
        options = command.get("options") or []
        base = {
            o["name"]: required(o, [world.bob])
            if not o.get("choices")
            else o["choices"][0]["value"]
            for o in options
            if o.get("required")
        }
        for option in options:
            if option["type"] != 3 or option.get("choices"):
                continue
            longest = "x" * option.get("max_length", 6000)
            ix = await fake.run_command(
                alice, command["name"], {**base, option["name"]: longest}, channel=world.channel
            )
            reply = await ix.reply(WAIT)
            answer = reply if reply.content or reply.embeds else await ix.followup(0, WAIT)
            what = (command["name"], option["name"], answer.content[:200])
            assert answer.ephemeral and APOLOGY not in answer.content, what
            assert 0 < len(answer.content) < 2000 and "x" * 100 not in answer.content, what
            answered += 1
    assert answered >= 6  # /challenge game, opening, time_control; /rules; /leaderboard; /move…
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]


#: Options of the wrong type, as a client bug or a command changed since the member's
#: client loaded it may send them: (command, options as sent).
WRONG_TYPES = [
    ("profile", [{"name": "member", "type": 6, "value": "hello"}]),
    ("profile", [{"name": "member", "type": 6, "value": "12345"}]),  # nobody resolved
    ("profile", [{"name": "public", "type": 5, "value": "yes"}]),
    (
        "challenge",
        [
            {"name": "game", "type": 3, "value": "lifeline"},
            {"name": "size", "type": 4, "value": "seven"},
        ],
    ),
    (
        "challenge",
        [
            {"name": "game", "type": 3, "value": "lifeline"},
            {"name": "opponent", "type": 6, "value": "bob"},
        ],
    ),
    ("challenge", [{"name": "game", "type": 3, "value": 7}]),
    (
        "practice",
        [
            {"name": "game", "type": 3, "value": "lifeline"},
            {"name": "size", "type": 3, "value": "3.5"},
        ],
    ),
    ("leaderboard", [{"name": "game", "type": 4, "value": 3}]),
    ("move", [{"name": "move", "type": 4, "value": 12}]),
]


async def test_options_of_the_wrong_type_get_one_clear_private_answer(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    before = snapshot(botproc)
    for name, options in WRONG_TYPES:
        mark = fake.mark()
        ix = await fake.run_command_raw(world.alice, name, options, channel=world.channel)
        answer = await ix.reply(WAIT)
        what = (name, options, answer.content)
        assert answer.ephemeral, what
        assert APOLOGY not in answer.content and answer.content, what
        assert fake.posts(world.channel, after=mark) == [], what
        assert snapshot(botproc) == before, what
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]
