//! The phrases and markers the give-up classifier looks for, in English (matched on ASCII-lowercased text) and
//! Chinese. Each alternative is a kind of wording, not a copy of one message: see `tests/fixtures/giveup/` for
//! the messages they are measured on.

use std::sync::LazyLock;

use regex_lite::Regex;

/// The compiled patterns, built once on first use, with `regex-lite`: a stop is a new process that compiles them
/// all, and `regex-lite` compiles these ~110 alternatives in a fraction of the time `regex` takes (about 1 ms
/// instead of 10–15 ms of CPU), while the messages it searches are a few KiB at most. Its `\w`, `\s` and `\b`
/// are ASCII-only: the English patterns run on ASCII-lowercased text, the Chinese ones are literals.
pub(super) struct Patterns {
    pub(super) external: Lazy,
    pub(super) asking: Lazy,
    pub(super) giving: Lazy,
    /// Before a match in its sentence: the phrase is conditional or reported ("if you …", "the README said …").
    pub(super) conditional: Lazy,
    /// After a match in its sentence (or anywhere in a later one): the agent worked around the obstacle —
    /// "so / instead / but … I <verb>", the verb captured (see `giveup::works_around`), or a Chinese connective.
    pub(super) workaround: Lazy,
    pub(super) workaround_zh: Lazy,
    /// The obstacle was in the past ("at first").
    pub(super) at_first: Lazy,
    /// A later sentence that moves on: next steps, work in progress, tests passing.
    pub(super) onward: Lazy,
    /// Tests passing, something fixed: progress, unless the sentence negates it ([`Patterns::negated`]).
    pub(super) resolved: Lazy,
    pub(super) negated: Lazy,
    pub(super) question_to_user: Lazy,
}

/// A pattern compiled on first use: a message without a give-up only ever needs the first three (a stop is a
/// new process, so what is not used is not compiled).
pub(super) type Lazy = LazyLock<Regex, fn() -> Regex>;

fn regex(alternatives: &[&str]) -> Regex {
    // The patterns are constants; a typo in one is caught by every test of this module.
    #[allow(clippy::unwrap_used)]
    Regex::new(&alternatives.join("|")).unwrap()
}

/// One alternative of a phrase pattern, with its anchors: words of which every match of the pattern contains at
/// least one. A message that holds none of a kind's anchors cannot match that kind, so its pattern is never
/// compiled (see `giveup::Anchored`). Anchors are lowercase and hold no white space and no quote mark: the
/// pattern runs on the message with quotes and code cut out and replaced by a space, and an anchor without those
/// characters is found in the raw message wherever the pattern found it in the cut one.
pub(super) struct Alt {
    pub(super) anchors: &'static [&'static str],
    pub(super) pattern: &'static str,
}

const fn alt(anchors: &'static [&'static str], pattern: &'static str) -> Alt {
    Alt { anchors, pattern }
}

fn alternatives(alts: &[Alt]) -> Regex {
    regex(&alts.iter().map(|a| a.pattern).collect::<Vec<_>>())
}

/// Whether any alternative of `alts` can match somewhere in `lower` (the ASCII-lowercased message).
pub(super) fn anchored(alts: &[Alt], lower: &str) -> bool {
    alts.iter().any(|a| a.anchors.iter().any(|word| lower.contains(word)))
}

pub(super) static PATTERNS: LazyLock<Patterns> = LazyLock::new(compile);

/// Every pattern, each compiled when first used; each hook is a new process, so a stop without a tag pays for
/// the ones its message needs.
pub(super) fn compile() -> Patterns {
    Patterns {
        external: LazyLock::new(|| alternatives(EXTERNAL)),
        asking: LazyLock::new(|| alternatives(ASKING)),
        giving: LazyLock::new(|| alternatives(GIVING)),
        conditional: LazyLock::new(|| {
            regex(&[
                r"\b(?:if|when|whenever|unless|once|whether|said|says)\b",
                r"\bto\s+use\s+it\b",
                "如果|假如|要是|是否需要(?:凭据|权限|密钥)",
            ])
        }),
        workaround: LazyLock::new(|| {
            regex(&[
                r"\b(?:so|instead|therefore|but|which\s+is\s+why)\b[^.?!]*?\bi(?:'ve|'ll|'m|\s+have|\s+will|\s+then)?\s+([a-z']+)",
            ])
        }),
        workaround_zh: LazyLock::new(|| regex(&["于是|所以我|因此我|改为|改用|改成|转而|不过我|但我|其实|是因为"])),
        at_first: LazyLock::new(|| {
            regex(&[
                r"\b(?:at\s+first|previously|earlier\s+i\s+thought|i\s+was\s+worried)\b",
                "一开始|起初|之前|原先|原本|本以为|原以为",
            ])
        }),
        onward: LazyLock::new(|| {
            regex(&[
                r"^[\s\-*\d.)]*(?:next|now|then|continuing|moving\s+on|running|re-running|investigating)\b",
                r"\bi(?:'ll|\s+will)\s+(?:now\s+|next\s+)?(?:continue|keep|proceed|move\s+on|look|investigate|fix|add|run|check|try|handle|tackle|write|implement|work|start|dig|leave\s+it)",
                r"\bi(?:'m|\s+am)\s+(?:now\s+)?(?:fixing|looking|working|writing|running|checking|investigating|adding|handling|reading|converting|isolating|moving)\b",
                r"\b(?:still\s+working|keep\s+going|moving\s+on|next\s*:|running\s+it|re-running)",
                r"^[\s\-*]*(?:i|i've|i\s+have)\s+(?:replaced|added|changed|fixed|switched|made|wrote|implemented|updated|moved|used|mocked|recorded|refactored|removed|renamed|started)\b",
                "接下来|我(?:会|将|正在)|正在|继续(?:排查|处理|修复|实现|运行|工作|进行|下一)|(?:全部|都|均)(?:已)?通过|已(?:经)?(?:修复|解决)|现在.{0,12}(?:通过|可以)",
            ])
        }),
        resolved: LazyLock::new(|| {
            regex(&[
                r"\b(?:tests?|suite|build|checks?|everything)\b[^.?!]*\b(?:pass|passes|passing|green)\b",
                r"\b(?:is|are)\s+(?:fixed|gone|resolved)\b",
            ])
        }),
        negated: LazyLock::new(|| {
            regex(&[r"\b(?:not|never|no|none|can't|cannot|couldn't|won't|doesn't|don't|isn't|breaks?|fails?)\b"])
        }),
        question_to_user: LazyLock::new(|| regex(&[r"[?\u{ff1f}]\s*$"])),
    }
}

pub(super) const EXTERNAL: &[Alt] = &[
    alt(
        &["need", "requir"],
        r"\b(?:needs?|requires?|requiring)\s+(?:an?\s+|the\s+|valid\s+|your\s+|some\s+)?(?:[\w-]+\s+)?(?:credentials?|api\s+keys?|keys?|tokens?|secrets?|passwords?|access|permissions?|licen[cs]es?|network|internet|sudo|root|admin|docker|vpn|2fa|a\s+human|manual)\b",
    ),
    alt(
        &[
            "network",
            "internet",
            "credential",
            "key",
            "access",
            "permission",
            "token",
            "account",
            "licen",
        ],
        r"\b(?:no|without)\s+(?:an?\s+|the\s+|any\s+)?(?:[\w-]+\s+)?(?:network|internet|credentials?|api\s+keys?|keys?|access|permissions?|tokens?|accounts?|licen[cs]es?)\b",
    ),
    alt(
        &["needed", "required", "missing"],
        r"\b(?:login|log-in|sign-in|key|token|account|approval|credentials?|access|permission|password|secret|licen[cs]e)s?\s+(?:is|are)\s+(?:needed|required|missing)\b",
    ),
    alt(
        &[
            "done",
            "installed",
            "created",
            "approved",
            "enabled",
            "configured",
            "granted",
            "provided",
            "set",
        ],
        r"\b(?:needs?|has|have)\s+to\s+be\s+(?:done|installed|created|approved|enabled|configured|granted|provided|set\s+up)\s+by\b",
    ),
    alt(
        &["only"],
        r"\bonly\s+(?:the\s+|an?\s+)?(?:[\w-]+\s+)?(?:owner|admin|administrator|maintainer|user|you)\s+can\b",
    ),
    alt(
        &[
            "access",
            "permission",
            "credential",
            "network",
            "internet",
            "key",
            "token",
            "password",
            "rights",
        ],
        r"\bi\s+(?:don't|do\s+not|didn't)\s+have\s+(?:the\s+|an?\s+|any\s+)?(?:[\w-]+\s+)?(?:access|permissions?|credentials?|network|internet|keys?|tokens?|passwords?|rights)\b",
    ),
    alt(
        &["environment", "sandbox", "container", "machine", "vm", "system"],
        r"\b(?:not|isn't|aren't)\s+(?:available|reachable|accessible|installed|configured|running)\s+(?:in|on|from)\s+(?:this|the)\s+(?:environment|sandbox|container|machine|vm|system)\b",
    ),
    alt(
        &["reachable"],
        r"\b(?:unreachable|not\s+reachable|isn't\s+reachable)\s+from\s+(?:here|this)\b",
    ),
    alt(
        &["variable", "key", "token", "secret"],
        r"\b(?:variable|key|token|secret)\s+(?:is\s+)?not\s+set\b",
    ),
    alt(&["you"], r"\byou(?:'ll|\s+will)?\s+(?:need|have)\s+to\b"),
    alt(&["you"], r"\byou\s+must\b"),
    alt(
        &["someone", "somebody"],
        r"\b(?:someone|somebody)\s+(?:with|who|needs\s+to|has\s+to|must)\b",
    ),
    alt(&["you"], r"\bby\s+you\b"),
    alt(&["blocked"], r"\bi(?:'m|\s+am)\s+blocked\b"),
    alt(&["blocked"], r"\bblocked\s+(?:on|by)\b"),
    alt(
        &["需要"],
        "需要.{0,12}?(?:凭据|凭证|密钥|令牌|token|权限|账号|帐号|密码|许可证|证书|网络|外网|管理员|root|sudo)",
    ),
    alt(
        &["必须先"],
        "必须先.{0,24}?(?:开通|申请|授权|登录|拿到|获取|购买|激活|批准)",
    ),
    alt(&["只能由"], "只能由.{0,12}?(?:来|完成|操作|处理|做)"),
    alt(&["没有"], "没有.{0,6}?(?:权限|网络|外网|凭据|凭证|密钥|账号|密码)"),
    alt(&["无法"], "无法(?:访问|连接|下载|登录)"),
    alt(&["你", "您"], "(?:你|您)(?:需要|必须|得)"),
    alt(&["需要"], "需要(?:你|您)"),
    alt(&["手动"], "(?:需要|请)手动"),
    alt(&["需要", "得有人"], "需要人工|需要有人|得有人"),
    alt(
        &[
            "连不上",
            "访问不了",
            "登不上",
            "下载不了",
            "先开通",
            "先申请",
            "先授权",
            "先登录",
        ],
        "连不上|访问不了|登不上|下载不了|(?:得|必须)先(?:开通|申请|授权|登录)",
    ),
    alt(&["阻"], "(?:被|受)阻"),
    alt(&["网络不可用"], "网络不可用"),
];

pub(super) const ASKING: &[Alt] = &[
    alt(&["you"], r"\bwould\s+you\s+(?:like|prefer|rather)\b"),
    alt(&["you"], r"\bdo\s+you\s+(?:want|prefer|need)\b"),
    alt(&["should", "shall", "may"], r"\b(?:should|shall|may)\s+i\b"),
    alt(&["know"], r"\blet\s+me\s+know\b"),
    alt(
        &["please"],
        r"\bplease\s+(?:let\s+me\s+know|confirm|advise|clarify|provide|tell|choose|decide|add|set|share|send|give|review|approve|check|run|install|configure|create)\b",
    ),
    alt(
        &["you"],
        r"\b(?:could|can|would)\s+you\s+(?:please\s+)?(?:provide|clarify|confirm|tell|share|check|run|give|send|add|set|let|explain|decide|choose|approve|help)\b",
    ),
    alt(&["you"], r"\b(?:how|what)\s+would\s+you\s+like\b"),
    alt(
        &["you"],
        r"\bwhich\s+(?:one|option|approach|version)\s+(?:would|do|should)\s+you\b",
    ),
    alt(&["you"], r"\b(?:waiting|wait)\s+for\s+your\b"),
    alt(&["you"], r"\bawaiting\s+your\b"),
    alt(&["you"], r"\bi\s+(?:need|would\s+need)\s+(?:you|your)\b"),
    alt(&["question"], r"\bi\s+have\s+a\s+question\b"),
    alt(&["question"], r"\bquestion\s+for\s+you\b"),
    alt(&["you"], r"\byour\s+(?:input|decision|confirmation|approval)\b"),
    alt(
        &["you"],
        r"\bwhat(?:'s|\s+is)\s+your\s+(?:preference|call|decision|choice)\b",
    ),
    alt(&["请问"], "请问"),
    alt(&["麻烦"], "麻烦(?:你|您)?(?:确认|提供|告诉|看一下|决定|帮忙)"),
    alt(&["拿不准", "不确定"], "拿不准|不确定.{0,10}(?:哪|是否)"),
    alt(&["你", "您"], "(?:你|您)(?:希望|想要?|觉得|打算|倾向|是否)"),
    alt(&["需要我"], "是否需要我"),
    alt(&["要不要我"], "要不要我"),
    alt(&["需要我"], "需要我.{0,8}吗"),
    alt(&["请"], "请(?:确认|告诉我|提供|选择|决定|指示|说明|明确)"),
    alt(&["你", "您"], "等(?:待)?(?:你|您)的"),
];

pub(super) const GIVING: &[Alt] = &[
    alt(
        &["can"],
        r"\bi\s+(?:cannot|can't|can\s+not)\s+(?:proceed|continue|complete|finish|fix|solve|resolve|get|make|figure|find\s+a\s+way|go\s+(?:any\s+)?further|do\s+(?:this|that|it|anything|more)|see\s+(?:a\s+way|how)|work\s+out|access|reach|install|download|connect|log\s+in|push|deploy)\b",
    ),
    alt(
        &["could"],
        r"\bi\s+(?:couldn't|could\s+not)\s+(?:fix|get|make|solve|resolve|figure|find\s+(?:a\s+way|the\s+cause|a\s+fix|a\s+solution)|complete|finish|proceed|continue)\b",
    ),
    alt(&["unable"], r"\bi(?:'m|\s+am|\s+was)\s+unable\s+to\b"),
    alt(
        &["able"],
        r"\bi(?:'m\s+not|\s+am\s+not|\s+was\s+not|\s+wasn't)\s+able\s+to\b",
    ),
    alt(&["give"], r"\bi\s+give\s+up\b"),
    alt(&["giving"], r"\bgiving\s+up\b"),
    alt(&["stop"], r"\bi(?:'ll|\s+will)\s+stop\s+here\b"),
    alt(&["stop"], r"\bstopping\s+here\b"),
    alt(&["stuck"], r"\bi(?:'m|\s+am)\s+stuck\b"),
    alt(&["exhausted"], r"\bi(?:'ve|\s+have)\s+exhausted\b"),
    alt(
        &["know", "see", "think"],
        r"\bi\s+(?:don't|do\s+not)\s+(?:know\s+how|see\s+(?:a|any)\s+way|think\s+(?:this|it)\s+(?:is|can\s+be)\s+(?:solvable|possible|fixable|done))\b",
    ),
    alt(&["solvable", "fixable"], r"\bnot\s+(?:solvable|fixable)\b"),
    alt(
        &["think", "believe"],
        r"\bi\s+(?:don't|do\s+not)\s+(?:think|believe)\s+(?:i|this|it|that|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:can|will|could)\b",
    ),
    alt(&["something"], r"\bnot\s+something\s+i\s+can\b"),
    alt(&["can"], r"\b(?:can't|cannot)\s+see\s+(?:a|any)\s+(?:way|path|route)\b"),
    alt(&["see"], r"\bi\s+see\s+no\s+(?:way|path)\b"),
    alt(&["beat", "stumped"], r"\bhas\s+me\s+(?:beat|beaten|stumped)\b"),
    alt(
        &["ideas", "approaches", "options", "things"],
        r"\b(?:run|ran)\s+out\s+of\s+(?:ideas|approaches|options|things\s+to\s+try)\b",
    ),
    alt(
        &["progress"],
        r"\bhaven't\s+made\s+(?:real\s+|any\s+|much\s+)?progress\b",
    ),
    alt(&["loss", "depth"], r"\b(?:at\s+a\s+loss|out\s+of\s+my\s+depth)\b"),
    alt(
        &["way", "means"],
        r"\bi\s+(?:have|had)\s+no\s+(?:\w+\s+)?(?:way|means)\b",
    ),
    alt(&["way"], r"\bi\s+(?:don't|do\s+not)\s+have\s+a\s+(?:\w+\s+)?way\b"),
    alt(
        &["wall", "dead"],
        r"\b(?:hit|hitting|reached)\s+a\s+(?:wall|dead\s+end)\b",
    ),
    alt(&["nothing"], r"\bnothing\s+(?:else|more)\s+i\s+can\s+do\b"),
    alt(&["allowed"], r"\bi(?:'m|\s+am)\s+not\s+allowed\s+to\b"),
    alt(
        &["idea"],
        r"\b(?:out\s+of\s+ideas|no\s+(?:more\s+)?ideas|no\s+idea\s+how)\b",
    ),
    alt(
        &["nothing", "way"],
        r"\bthere(?:'s|\s+is)\s+(?:nothing\s+more|no\s+way\s+for\s+me|no\s+way\s+to)\b",
    ),
    alt(&["beyond"], r"\bbeyond\s+(?:my|what\s+i)\b"),
    alt(
        &["possible"],
        r"\b(?:it's|it\s+is|this\s+is)\s+(?:not\s+possible|impossible)\b",
    ),
    alt(&["cannot"], r"\bcannot\s+be\s+(?:done|fixed|completed|solved)\b"),
    alt(
        &["无法", "不能", "没法", "没办法", "没有办法", "做不到"],
        "我(?:实在|真的|目前|暂时|这边)?(?:无法|不能|没法|没办法|没有办法|做不到)",
    ),
    alt(&["放弃"], "放弃"),
    alt(&["无能为力"], "无能为力"),
    alt(&["超出"], "超出了?我"),
    alt(&["束手无策"], "束手无策"),
    alt(&["卡住了"], "卡住了"),
    alt(
        &["搞不定", "没有思路", "没思路", "想不出"],
        "搞不定|没有思路|没思路|想不出(?:办法|解决)",
    ),
    alt(&["没有"], "没有(?:更多|别的|其他)?(?:办法|思路|头绪)"),
    alt(&["看不出", "找不到"], "看不出|找不到(?:原因|办法|解决)"),
    alt(
        &["不会有", "没有", "走不通"],
        "不会有(?:结果|进展)|没有(?:任何)?进展|走不通",
    ),
    alt(&["不可能"], "不可能(?:完成|实现|做到)"),
];
