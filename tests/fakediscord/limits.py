"""Limits Discord enforces that its OpenAPI description does not express
(or expresses more loosely), checked on every message the bot sends."""

from __future__ import annotations

from typing import Any

from .models import IS_COMPONENTS_V2

MAX_CONTENT = 2000
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_FILES = 10
MAX_UPLOAD = 10 * 1024 * 1024


def check_message(body: dict[str, Any] | None, n_files: int = 0, *, creating: bool) -> list[str]:
    """What Discord rejects in a message body (create or edit)."""
    if not isinstance(body, dict):
        return []
    errors: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors.append(f"content: {len(content)} characters, Discord allows {MAX_CONTENT}")
    embeds = body.get("embeds") or []
    total = 0
    for e in embeds if isinstance(embeds, list) else []:
        if not isinstance(e, dict):
            continue
        total += len(e.get("title") or "") + len(e.get("description") or "")
        total += len((e.get("footer") or {}).get("text") or "")
        total += len((e.get("author") or {}).get("name") or "")
        for f in e.get("fields") or []:
            total += len(f.get("name") or "") + len(f.get("value") or "")
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds: {total} characters in total, Discord allows {MAX_EMBED_TOTAL}")
    flags = body.get("flags") or 0
    errors += check_components(body.get("components"), v2=bool(flags & IS_COMPONENTS_V2))
    if n_files > MAX_FILES:
        errors.append(f"{n_files} files, Discord allows {MAX_FILES}")
    if creating and not (
        content
        or embeds
        or body.get("components")
        or n_files
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        errors.append("Cannot send an empty message (code 50006)")
    return errors


def check_components(components: Any, *, v2: bool = False) -> list[str]:
    if not isinstance(components, list):
        return []
    errors: list[str] = []
    if not v2 and len(components) > MAX_ROWS:
        errors.append(f"components: {len(components)} action rows, Discord allows {MAX_ROWS}")
    seen: set[str] = set()

    def visit(c: Any, where: str) -> None:
        if not isinstance(c, dict):
            return
        kind = c.get("type")
        children = c.get("components") or []
        if kind == 1:
            buttons = [x for x in children if isinstance(x, dict) and x.get("type") == 2]
            if len(buttons) > MAX_PER_ROW:
                errors.append(f"{where}: {len(buttons)} buttons in a row, Discord allows 5")
            if len(children) > 1 and any(x.get("type") in (3, 5, 6, 7, 8) for x in children):
                errors.append(f"{where}: a select menu must be alone in its action row")
        cid = c.get("custom_id")
        if cid is not None:
            if len(cid) > MAX_CUSTOM_ID:
                errors.append(f"{where}: custom_id of {len(cid)} characters, Discord allows 100")
            if cid in seen:
                errors.append(f"{where}: duplicate custom_id {cid!r} in one message")
            seen.add(cid)
        if kind == 2:
            link = c.get("style") == 5
            if link and not c.get("url"):
                errors.append(f"{where}: a link button needs a url")
            if not link and c.get("style") != 6 and not cid:
                errors.append(f"{where}: a button needs a custom_id")
            if not (c.get("label") or c.get("emoji")):
                errors.append(f"{where}: a button needs a label or an emoji")
        for i, child in enumerate(children):
            visit(child, f"{where}/components/{i}")
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                visit(c[key], f"{where}/{key}")

    for i, c in enumerate(components):
        visit(c, f"components/{i}")
    return errors


def check_choices(data: Any) -> list[str]:
    choices = (data or {}).get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list):
        return ["autocomplete answer without a choices list"]
    errors = []
    if len(choices) > MAX_CHOICES:
        errors.append(f"{len(choices)} autocomplete choices, Discord allows {MAX_CHOICES}")
    for i, ch in enumerate(choices):
        name = ch.get("name", "") if isinstance(ch, dict) else ""
        value = ch.get("value") if isinstance(ch, dict) else None
        if not 1 <= len(name) <= MAX_CHOICE_TEXT:
            errors.append(f"choices/{i}/name: {len(name)} characters, Discord allows 1–100")
        if isinstance(value, str) and not 1 <= len(value) <= MAX_CHOICE_TEXT:
            errors.append(f"choices/{i}/value: {len(value)} characters, Discord allows 1–100")
    return errors


def check_modal(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["modal without data"]
    errors = []
    if len(data.get("title") or "") > 45:
        errors.append("modal title longer than 45 characters")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errors.append(f"a modal takes 1–5 components, got {len(comps)}")
    errors += check_components(comps, v2=True)
    return errors
