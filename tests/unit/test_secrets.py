"""Secret detection: each kind found, and the look-alikes memory files are full of left alone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.core.check.secrets import find_secrets, luhn_ok, national_id_ok


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("电话13812345678。", "phone", "13812345678"),
        ("手机：139-1234-5678", "phone", "139-1234-5678"),
        ("call 138 0013 8000 today", "phone", "138 0013 8000"),
        ("+86 138 0013 8000", "phone", "+86 138 0013 8000"),
        ("office +1 415-555-0100.", "phone", "+1 415-555-0100"),
        ("tel:+442079460958", "phone", "+442079460958"),
        ("邮箱是chen.ming+news@example.co.uk，", "email", "chen.ming+news@example.co.uk"),
        ("mail <a_b@sub.example.org>", "email", "a_b@sub.example.org"),
        ("身份证号11010519491231002X。", "national-id", "11010519491231002X"),
        ("id 110105194912310029x", None, None),
        ("卡号 6222 0200 0000 0000 001", None, None),
        ("visa 4111 1111 1111 1111 exp", "card", "4111 1111 1111 1111"),
        ("amex 3782-822463-10005", "card", "3782-822463-10005"),
        ("card:5555555555554444", "card", "5555555555554444"),
        ("key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12", "api-key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12"),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "api-key", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        ("aws AKIAIOSFODNN7EXAMPLE.", "api-key", "AKIAIOSFODNN7EXAMPLE"),
        ("slack xoxb-123456789012-abcdefABCDEF", "api-key", "xoxb-123456789012-abcdefABCDEF"),
        ("API key: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "api-key", "3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
        ("token=dGhpc2lzYXNlY3JldHRva2VuMTIzNDU2", "api-key", "dGhpc2lzYXNlY3JldHRva2VuMTIzNDU2"),
        ("密钥：Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA", "api-key", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA"),
        ("password=hunter2", "password", "hunter2"),
        ("passwd: 'correct horse'", "password", "correct horse"),
        ("Wi-Fi 密码：abc12345。", "password", "abc12345"),
        ("路由器密码是Xy12ab", "password", "Xy12ab"),
        ("PWD = s3cr3t!", "password", "s3cr3t!"),
    ],
)
def test_each_kind_is_found(text: str, kind: str | None, value: str | None) -> None:
    found = find_secrets(text)
    if kind is None:
        assert found == []
        return
    assert [(m.kind, m.value) for m in found] == [(kind, value)]
    m = found[0]
    assert text[m.start : m.end] == value


@pytest.mark.parametrize(
    "text",
    [
        "timestamp: 2025-06-01T14:32:00+08:00",
        "2025-06-01 2025-06-02 2025-06-03 2025-06-04",
        "09:40 开会，13:05 吃饭",
        "source: chat#13812345678",
        "mem-13812345678 and mem-0012",
        "order-13812345678",
        "1717171717171 ms since epoch",
        "version 1.3812345678",
        "sha256: c7a6205efc64f591ba75e1a4ad5cd5995b8b0304979eca43331da69272e3655e",
        "{{secret:phone-1}} and {{secret:email-1}} and {{secret:api-key-12}}",
        'password: "{{secret:password-1}}"',
        "password: ****",
        "the password is stored in 1Password",
        "tokens: [a, b]",
        "a monkey key ring",
        "price 12345678901234 yuan",
        "user@localhost",
        "tokenization_with_numbers_2024_abc",
    ],
)
def test_look_alikes_are_not_secrets(text: str) -> None:
    assert find_secrets(text) == []


def test_several_secrets_in_order_without_overlap() -> None:
    text = "a@b.io 13812345678\n密码：x1 sk-abcdefghijklmnopqrstuvwxyz12 4111111111111111"
    found = find_secrets(text)
    assert [m.kind for m in found] == ["email", "phone", "password", "api-key", "card"]
    spans = [(m.start, m.end) for m in found]
    assert spans == sorted(spans) and all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False))


def test_checksums() -> None:
    assert national_id_ok("11010519491231002X") and not national_id_ok("110105194912310021")
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_big_text_same_as_line_by_line() -> None:
    lines = [f"filler line {i} with 2025-06-01 and mem-{i:04d}" for i in range(2000)]
    lines[700] = "phone 13812345678"
    lines[1500] = "mail x@y.cn token: 9fQ2xL7vK3mR8tW1zY5bN0cD"  # abcdef0123… reads as an example now
    text = "\n".join(lines)
    whole = [(m.kind, m.value) for m in find_secrets(text)]
    one_by_one = [(m.kind, m.value) for line in lines for m in find_secrets(line)]
    assert whole == one_by_one == [("phone", "13812345678"), ("email", "x@y.cn"), ("api-key", "9fQ2xL7vK3mR8tW1zY5bN0cD")]


@given(st.lists(st.sampled_from(["13812345678", "a@b.io", "密码：x", "mem-0001", "2025-06-01", "中文", " ", "\n", "{{secret:phone-1}}"]), max_size=20))
def test_whole_text_equals_sum_of_lines(parts: list[str]) -> None:
    text = "".join(parts)
    whole = [(m.kind, m.value) for m in find_secrets(text)]
    by_line = [(m.kind, m.value) for line in text.split("\n") for m in find_secrets(line)]
    assert whole == by_line


def test_password_words_in_plain_chinese_are_not_passwords() -> None:
    assert find_secrets("他忘了密码是什么，密码为空也不行") == []
    assert [m.value for m in find_secrets("密码是 Abc123!，别忘了")] == ["Abc123!"]
