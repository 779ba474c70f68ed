"""Credentials as people write them in notes, and what is not a secret (spec: Secrets).

Every value here is a synthetic look-alike of a form found in real, public OpenClaw workspaces:
each form must be flagged with its kind and exact value, and each near miss must not be.
"""

from __future__ import annotations

import pytest

from openclaw_tui.core.check.secrets import CREDENTIAL_KINDS, find_secrets, is_credential

HEX64 = "9f" * 32
FLAG: list[tuple[str, str, str]] = [
    # labels, English and Chinese, in the forms notes use
    ("password=Hunter22x", "password", "Hunter22x"),
    ("- **Password:** Tr0ub4dor&3", "password", "Tr0ub4dor&3"),
    ("- **Password**: Tr0ub4dor&3", "password", "Tr0ub4dor&3"),
    ("- Password: **Pq4RtYe8LmWzNcV**", "password", "Pq4RtYe8LmWzNcV"),
    ("Email: a@b.example / Password: Zq9vLm2Rt", "password", "Zq9vLm2Rt"),
    ("NAS login: admin pass `Blue!Fox-42`", "password", "Blue!Fox-42"),
    ("router: user `admin` / pass `p4ss-w0rd`", "password", "p4ss-w0rd"),
    ("user root / pass Abc12345x", "password", "Abc12345x"),
    ("- NAS: jdoe pass `Xy12ab!9`", "password", "Xy12ab!9"),
    ("SSH password `rootpw99`", "password", "rootpw99"),
    ("the password is `Sunny-Day-77`", "password", "Sunny-Day-77"),
    ("passwd: 'correct horse'", "password", "correct horse"),
    ("pwd = s3cr3t!", "password", "s3cr3t!"),
    ("passphrase: \"tidal wave 42\"", "password", "tidal wave 42"),
    ("Door PIN: 4821", "password", "4821"),
    ("Wi-Fi 密码：abc12345。", "password", "abc12345"),
    ("服务器口令：qwe!2345", "password", "qwe!2345"),
    ("路由器密码是Xy12ab", "password", "Xy12ab"),
    ("- sudo密码: Yourdog2024x", "password", "Yourdog2024x"),
    ("- **GitHub/邮箱**: someone@mail.example / Qx7open99", "password", "Qx7open99"),
    ("- **计算机 PIN**: 284619", "password", "284619"),
    ("| Password | Abc12345 |", "password", "Abc12345"),
    ("| SSH setup | ✅ | user dev1, password Marmot456! |", "password", "Marmot456!"),
    ("| Host | User | Password |\n|---|---|---|\n| nas | admin | Gr8-Pass-9 |", "password", "Gr8-Pass-9"),
    # command flags and connection strings
    ("setup.exe /S /PASSWORD=Xy12345z", "password", "Xy12345z"),
    ("mysql -uroot -pS3cretPw db", "password", "S3cretPw"),
    ("sshpass -p \"Marmot456!\" ssh u@10.0.0.2", "password", "Marmot456!"),
    ("tool --password Zz9-yy8-xx7", "password", "Zz9-yy8-xx7"),
    ("Server=db;User Id=sa;Password=Pa55w0rd9;", "password", "Pa55w0rd9"),
    ("DB_PASSWORD=k8Xv2Lq9", "password", "k8Xv2Lq9"),
    ("https://bob:s3cr3tpw@example.com/x", "url-credential", "s3cr3tpw"),
    ("postgres://app:Zx81kLmQ@db.internal:5432/main", "url-credential", "Zx81kLmQ"),
    # key and token labels
    (f"API Key: `comfyui-{HEX64}`", "api-key", f"comfyui-{HEX64}"),
    ("- **API Key**: `svc_sk_A1b-ZZq9rTtY7uPp0WwE`", "api-key", "svc_sk_A1b-ZZq9rTtY7uPp0WwE"),
    ("API密钥: sk_live_" + "3e8" * 16, "api-key", "sk_live_" + "3e8" * 16),
    ("**APP SECRET**: Rb8NpQs2XvLw4TkH7mZc（已写入 config）", "api-key", "Rb8NpQs2XvLw4TkH7mZc"),
    ('"apiKey": "QWtk3Lm9Zp2Xv7Rb5Nc8Hd"', "api-key", "QWtk3Lm9Zp2Xv7Rb5Nc8Hd"),
    ("token=dGhpc2lzYXNlY3JldHRva2VuMTIzNDU2", "api-key", "dGhpc2lzYXNlY3JldHRva2VuMTIzNDU2"),
    ("私钥: 0x" + "4c0883a6" * 8, "private-key", "0x" + "4c0883a6" * 8),
    # well-known token formats (detect-secrets' catalogue and the formats it lacks)
    ("ghp_" + "a1B2" * 9, "api-key", "ghp_" + "a1B2" * 9),
    ("github_pat_11AAAAAAA0" + "x9" * 20, "api-key", "github_pat_11AAAAAAA0" + "x9" * 20),
    ("aws AKIAIOSFODNN7EXAMPLE.", "api-key", "AKIAIOSFODNN7EXAMPLE"),
    ("slack xoxb-123456789012-abcdefABCDEF", "api-key", "xoxb-123456789012-abcdefABCDEF"),
    ("key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12", "api-key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12"),
    ("sk-ant-api03-" + "x1Y2" * 10, "api-key", "sk-ant-api03-" + "x1Y2" * 10),
    ("nvapi-Zp3Xq8Lw2Rt5Vb9Nm4Kc7-Hy6Jd1", "api-key", "nvapi-Zp3Xq8Lw2Rt5Vb9Nm4Kc7-Hy6Jd1"),
    ("bot 123456789:" + "AAh4" * 8 + "Zz9", "api-key", "123456789:" + "AAh4" * 8 + "Zz9"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
        "private-key",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
    ),
]

NOT_A_SECRET: list[str] = [
    # words that say where a secret lives, or that it is gone; placeholders; masks
    "- Password: stored securely and redacted from memory",
    "- Password: stored in openclaw env config",
    "- **Password:** same as the mail account (stored in `~/.openclaw/secrets/mail.txt`)",
    "Password: ***",
    "password: {{secret:password-1}}",
    "password: <redacted>",
    "password: see 1Password",
    "token: ${GITHUB_TOKEN}",
    '"token": "your-64-char-hex-token-here"',
    'export GATEWAY_PASSWORD="your-secure-password-here"',
    'passphrase = "DEMO_PASSPHRASE"',
    # cut short or masked values
    "API Key: ab9Xk...7qwe",
    "GitHub token `ghp_9ZzQ...` 已过期",
    '"apiKey": "AIzaSy**************************"',
    'export OPENAI_API_KEY="sk-cp-Q2w-..."',
    'botToken: "123456:ABC..."',
    # prose and code around a label
    "3. pass `--subject-ref <photo>` so the figurine keeps the face",
    "the document MUST pass `business-rules.xsd` validation",
    "in substeps, pass `iFrame` as `frame * substeps`",
    "**Image Pass** (iChannel0 = Buffer A):",
    "password: _passwordController.text,",
    'password: z.string().min(8, "Min 8 characters"),',
    'const password = watch("password");',
    'textbox "Password" [ref=e2], button "Submit"',
    "- 自动识别分享链接 `https://pan.example/s/1{surl}?pwd={pwd}`",
    "the token count was 1500",
    "- **Token预算**：2000-3000 token",
    "pass the tests before merging",
    "pass `--agent` for non-interactive output",
    "pass `base_url` to the client",
    "- 登录密码: 已取消",
    'return {"pass": True}',
    "mail a@b.example / 2026-03-01",
    "Password-protected zips (bypass scanners)",
    "--token 0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a",
    "    - search_token: api.example.com/v1/market/search",
    # links of scraped pages, slugs
    "[Join](https://community.example.com/join?invitation_token=4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f4f)",
    "[story](https://news.example.com/xai-engineer-says-he-works-19-hour-shift-faces-backlash)",
    "![](https://img.example.com/a.jpg?X-Amz-Credential=ASIAY34FZKBOKMUTVV7A%2F20250101)",
]

NOT_PERSONAL: list[str] = [
    "git remote add origin git@github.com:owner/repo.git",
    "ssh root@example.com 'uptime'",
    "scp notes.md deploy@build.example.com:/srv/notes/",
    "send to wxid_test456@im.wechat via the message tool",
    "session agent:main:whatsapp:direct:+8613800138000",
    "- post ID 604213987654323 went out",
]


@pytest.mark.parametrize(("text", "kind", "value"), FLAG)
def test_each_written_form_is_flagged_with_its_value(text: str, kind: str, value: str) -> None:
    found = [m for m in find_secrets(text) if is_credential(m)]
    assert [(m.kind, m.value) for m in found] == [(kind, value)]
    assert text[found[0].start : found[0].end] == value
    assert kind in CREDENTIAL_KINDS


@pytest.mark.parametrize("text", NOT_A_SECRET)
def test_near_misses_are_not_credentials(text: str) -> None:
    assert [(m.kind, m.value) for m in find_secrets(text) if is_credential(m)] == []


@pytest.mark.parametrize("text", NOT_PERSONAL)
def test_logins_remotes_targets_and_session_keys_are_not_personal_data(text: str) -> None:
    assert find_secrets(text) == []


def test_an_email_address_stays_personal_data_not_a_credential() -> None:
    found = find_secrets("- Email: jane.doe@example.com")
    assert [(m.kind, m.value) for m in found] == [("email", "jane.doe@example.com")]
    assert not is_credential(found[0])


def test_credentials_only_leaves_personal_data_out() -> None:
    text = "mail jane@example.com, password: Zq9vLm2Rt, call 13812345678"
    assert [(m.kind, m.value) for m in find_secrets(text, personal=False)] == [("password", "Zq9vLm2Rt")]


def test_the_api_is_stable_for_other_callers() -> None:
    assert CREDENTIAL_KINDS == frozenset({"api-key", "password", "private-key", "url-credential"})
    m = find_secrets("password=Hunter22x")[0]
    assert is_credential(m) and m.kind == "password"


def test_long_hostile_lines_give_answers() -> None:
    # each of these was quadratic (seconds for 20k characters, minutes beyond): a label or a
    # scheme at every position of one line; they must still be read, whole, and right
    n = 200_000
    assert find_secrets("a" * n + " me@x.example / Zx81kLmQ")[-1].value == "Zx81kLmQ"
    assert find_secrets("pass " * (n // 5) + "password: Zq9vLm2Rt")[-1].value == "Zq9vLm2Rt"
    assert find_secrets("a-" * n + "://") == []
