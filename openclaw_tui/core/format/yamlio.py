"""YAML helpers shared by the parser and the editors: PyYAML's safe loading, except that dates and
timestamps stay the strings the author wrote."""

from __future__ import annotations

from typing import Any

import yaml

from .scalars import render_scalar as render_scalar  # the UI's import of it

_BaseLoader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class TextDateLoader(_BaseLoader):  # type: ignore[misc]
    """Safe loader that leaves timestamps as strings."""


TextDateLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


# A document whose aliases would expand it by more than this many nodes is refused
# unread ("billion laughs": nine levels of nine aliases are 387 million values).
MAX_ALIAS_EXPANSION = 100_000


class YamlTooLarge(yaml.YAMLError):
    """A YAML document whose aliases expand past ``MAX_ALIAS_EXPANSION`` (or loop): never expanded."""

    problem = (
        f"its aliases (*name) expand to more than {MAX_ALIAS_EXPANSION:,} values (an alias bomb?); "
        "it was not expanded"
    )

    def __init__(self) -> None:
        super().__init__(self.problem)


def check_expansion(node: Any, limit: int = MAX_ALIAS_EXPANSION) -> None:
    """Raise YamlTooLarge when walking ``node`` through its aliases would visit too many nodes
    (anything walking the shared node graph pays for every expansion); linear in the document."""
    if node is None:
        return
    sizes: dict[int, int] = {}
    distinct = 0
    stack: list[tuple[Any, bool]] = [(node, False)]
    open_: set[int] = set()
    while stack:
        n, done = stack.pop()
        key = id(n)
        if done:
            children = _children(n)
            sizes[key] = 1 + sum(sizes[id(c)] for c in children)
            open_.discard(key)
            if sizes[key] > distinct + limit:
                raise YamlTooLarge()
            continue
        if key in sizes:
            continue
        if key in open_:  # a node that contains itself: infinite when expanded
            raise YamlTooLarge()
        open_.add(key)
        distinct += 1
        stack.append((n, True))
        for c in _children(n):
            if id(c) in open_:
                raise YamlTooLarge()
            if id(c) not in sizes:
                stack.append((c, False))


def _children(n: Any) -> list[Any]:
    if isinstance(n, yaml.MappingNode):
        return [x for pair in n.value for x in pair]
    if isinstance(n, yaml.SequenceNode):
        return list(n.value)
    return []


def _too_deep() -> yaml.YAMLError:
    return yaml.YAMLError("it is nested too deeply to be read")


def compose_all_bounded(text: str, loader: type[Any] = _BaseLoader) -> list[Any]:
    """``yaml.compose_all`` that refuses alias bombs (YamlTooLarge, a yaml.YAMLError) and deep nesting."""
    try:
        docs = list(yaml.compose_all(text, Loader=loader))
    except RecursionError:
        raise _too_deep() from None
    if "*" in text:  # no alias without a star
        for d in docs:
            check_expansion(d)
    return docs


def compose_bounded(text: str, loader: type[Any] = _BaseLoader) -> Any:
    """``yaml.compose`` that refuses alias bombs and deep nesting."""
    try:
        node = yaml.compose(text, Loader=loader)
    except RecursionError:
        raise _too_deep() from None
    if "*" in text:
        check_expansion(node)
    return node


def load_yaml(text: str, loader: type[Any] | None = None) -> Any:
    """Load one YAML document with dates kept as text (safe tags only); raises yaml.YAMLError
    (YamlTooLarge for an alias bomb)."""
    ld = (loader or TextDateLoader)(text)
    try:
        node = ld.get_single_node()
        if node is None:
            return None
        if "*" in text:
            check_expansion(node)
        return ld.construct_document(node)
    except RecursionError:
        raise _too_deep() from None
    finally:
        ld.dispose()


def safe_load_bounded(text: str) -> Any:
    """``yaml.safe_load`` (dates as dates) that refuses alias bombs."""
    return load_yaml(text, _BaseLoader)


def alias_problem(text: str) -> str | None:
    """Why a YAML text is refused unread (an alias bomb), else None (invalid YAML is not this)."""
    if "*" not in text:
        return None
    try:
        compose_all_bounded(text)
    except YamlTooLarge as exc:
        return exc.problem
    except (yaml.YAMLError, RecursionError):
        return None
    return None
