"""Languages as members meet them in Discord (issue 30): in a server whose language is
French, a member whose Discord speaks German gets her own answers and refusals in
German (her /challenge, /move, a refusal, the guide of /rules and its pages, /resign)
while what the channel and the game's thread show everyone is French (the challenge
card and its buttons, the board posts, the game's final post); the commands Discord
shows carry every language's names. The words are the shipped catalogues' German and
French, so the test reads what it expects from them."""

from __future__ import annotations

from string import Formatter

import rules
from bot.i18n import catalogues
from bot.learning.guide import guide_for
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, Table


def worded(locale: str, english: str) -> str:
    """``english`` as the shipped catalogue of ``locale`` words it (it must)."""
    text = catalogues().text(locale, english)
    assert text != english, f"the {locale} catalogue has no {english!r}"
    return text


def says(content: str, locale: str, english: str) -> bool:
    """Whether ``content`` holds every literal part of ``english`` as ``locale`` words
    it (whatever its placeholders became)."""
    parts = [literal.strip() for literal, *_ in Formatter().parse(worded(locale, english))]
    return all(part in content for part in parts if part)


async def test_a_german_member_in_a_french_server(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    world.guild.locale = "fr"
    alice.user.locale = "de"
    # the commands come with their names in every language
    move = next(c for c in fake.commands_for(world.guild) if c["name"] == "move")
    assert (move["name_localizations"]["de"], move["name_localizations"]["fr"]) == (
        "zug",
        "jouer",
    )

    # /challenge: her answer in German, privately; the card in the channel, in French
    mark = fake.mark()
    ix = await fake.run_command(
        alice,
        "challenge",
        {"game": "astralis", "opponent": bob, "size": 7, "first": "challenger"},
        channel=world.channel,
    )
    answer = await ix.reply(WAIT)
    posted = worded("de", "Your challenge to {name} is posted: {url}")
    assert answer.ephemeral
    assert answer.content.startswith(posted.split("{url}")[0].format(name="Bob")), answer.content
    card = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons) and bob.mention in m.content, after=mark
    )
    assert not card.ephemeral and f"/{world.channel.id}/{card.id}" in answer.content
    challenges = "**{name}** challenges {whom} to **{game}** ({options}; {first}{casual}; {clock})."
    assert says(card.content, "fr", challenges), card.content
    assert says(card.content, "fr", "Accept to start the game in a thread of its own.")
    assert card.button(label=worded("fr", "Decline"))
    await (await fake.click(bob, card, label=worded("fr", "Accept"))).reply(WAIT)
    thread = fake.channels[card.id]
    opening = await fake.wait_for_message(thread, lambda m: bool(m.attachments), after=mark)
    assert says(opening.content, "fr", "**{game}**: {first} vs {second} ({options}).")
    setup = "place your pawn on your home edge (bottom row, {first}–{last})"
    prompt = worded("fr", setup).format(first="a2", last="a6")
    turn = worded("fr", "{member}, your turn: {prompt}.").format(
        member=alice.mention, prompt=prompt
    )
    assert turn in opening.content, opening.content
    new = rules.get_game("astralis").new(size=7)
    table = Table(fake, "astralis", (alice, bob), thread, new, posts=[opening])

    # /move: her answer in German, privately; the thread's post in French, for everyone
    mark = fake.mark()
    ix = await fake.run_command(alice, "move", {"move": "a6"}, channel=table.thread)
    answer = await ix.reply(WAIT)
    played = worded("de", "You played `{move}` in {game}.")
    assert answer.ephemeral
    assert answer.content.startswith(played.split("{game}")[0].format(move="a6")), answer.content
    post = await table.next_post(mark)
    head = worded("fr", "**{game}** · move {number}").format(game="Astralis #1", number=1)
    line = worded("fr", "{head}: {name} played `{move}`").split("{name}")[1].format(move="a6")
    assert post.content.startswith(head) and line in post.content, post.content
    assert not post.ephemeral
    table.state = table.state.play("a6")
    # out of turn: refused in German, privately
    ix = await fake.run_command(alice, "move", {"move": "b2"}, channel=table.thread)
    refused = await ix.reply(WAIT)
    waiting = worded("de", "It's not your turn in {game}: waiting for {name}.")
    assert refused.ephemeral
    assert refused.content == waiting.format(game="Astralis #1", name="Bob"), refused.content

    # /rules: the guide in German, privately, and a page turned with its button
    guide = guide_for("astralis")
    ix = await fake.run_command(alice, "rules", {"game": "astralis"}, channel=world.channel)
    shown = await ix.reply(WAIT)
    embed = shown.embeds[0]
    assert shown.ephemeral
    assert embed["title"] == f"Astralis: {worded('de', guide.pages[0].title)}", embed["title"]
    assert embed["description"].startswith(worded("de", guide.pages[0].text)[:80])
    assert says(embed["footer"]["text"], "de", "Page {number} of {count}")
    turned = await (await fake.click(alice, shown, custom_id="bb:guide:astralis:1")).reply(WAIT)
    embed = turned.embeds[0]
    assert embed["title"] == f"Astralis: {worded('de', guide.pages[1].title)}", embed["title"]
    assert embed["description"].startswith(worded("de", guide.pages[1].text)[:80])
    assert says(embed["footer"]["text"], "de", "Page {number} of {count}")

    # /resign: asked and answered in German; the thread's final post in French
    mark = fake.mark()
    ix = await fake.run_command(alice, "resign", {}, channel=table.thread)
    confirm = await ix.reply(WAIT)
    asked = (
        "Resign **{game}** against {name}? {name} wins; this can't be "
        "undone. (Dismiss this message to keep playing.)"
    )
    assert confirm.ephemeral and says(confirm.content, "de", asked), confirm.content
    clicked = fake.click(alice, confirm, label=worded("de", "Yes, resign"))
    resigned = await (await clicked).reply(WAIT)
    assert says(resigned.content, "de", "You resigned {game}. {result}."), resigned.content
    assert says(resigned.content, "de", "{winner} wins: {loser} resigned"), resigned.content
    final = await table.next_post(mark)
    assert says(final.content, "fr", "**Game over.** {result}"), final.content
    assert says(final.content, "fr", "{winner} wins: {loser} resigned"), final.content
    assert worded("fr", "{name} wins.").format(name="Bob") in final.content, final.content
