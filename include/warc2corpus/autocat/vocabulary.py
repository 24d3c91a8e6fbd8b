"""autoCat's vocabulary: the words, labels and patterns it looks for, apart from the logic that uses them
(as trafilatura keeps its XPaths in one module). Patterns over normalised text run over lowercased
text (see ``evidence._matches``). autoCat2's own patterns (the baseline) are here too.
"""

from __future__ import annotations

import re


# A page whose raw HTML holds none of these cannot have evidence: it is not parsed at all (nor one whose only
# "redakt" is German "Redaktion": TRIGGER_UNLESS_ALL).
TRIGGERS = ("redakt", "doaimmaheaddji", "ansv", "ans. red", "ans.red", "sjefred", "sjefsred", "varsom", "presse.no", "nored.no", "pfu.no", "plakat", "utgivare",
            "chefred", "editor", "ã¸")

# Bodies that are not edited news but may still declare a responsible editor (NDLA's learning
# resources print "Ansvarleg redaktør:" in every footer; municipalities, ministries and libraries
# name one for their web pages): such a host is recorded as `declares_editor_not_news` for a person
# to decide, never accepted silently. Signs of such a body: the type the page gives its organisation
# in JSON-LD, and the host's name.
NOT_NEWS_TYPES = {
    "GovernmentOrganization": "a public body", "Library": "a library", "EducationalOrganization": "an educational body",
    "CollegeOrUniversity": "a college or university", "School": "a school", "WorkersUnion": "a union",
    "NGO": "an organisation", "Museum": "a museum",
}
NOT_NEWS_HOSTS = tuple((re.compile(pattern), what) for pattern, what in (
    (r"(?:^|\.)(?:fylkes)?kommune\.no$", "a municipality or county"),
    (r"(?:^|\.)(?:regjeringen|stortinget)\.no$|\.dep\.no$", "a government body"),
    (r"bibliotek", "a library"),
    (r"(?:^|\.)ndla\.no$", "an educational body"),
    (r"forbund(?:et)?\.no$", "a union or association"),
))

SKIPPED_HOST_LABELS = {"samtykke", "samtykker", "stilling", "stillinger", "personvern"}

# autoCat2's (the baseline's) patterns over the raw HTML.
OE = r"(?:ø|&oslash;|&#248;|&#xf8;)"  # ø as written in HTML source

MAIN_PATTERN = re.compile(
    "|".join(
        (
            rf"Ansvarlig redakt{OE}r",
            rf"Ansvarleg redakt{OE}r",
            rf"Ansv\.?\s*redakt{OE}r",
            r"Ansv\.?\s*red\.",
            r"Ansvarlig red\.",
            r"Ansvarleg red\.",
            rf"Sjefsredakt{OE}r",
            r"Sjefsred\.?",
            rf"Sjefredakt{OE}r",
            r"Sjefred\.?",
            r"V(?:á|&aacute;|&#225;)ldodoaimmaheaddji",
        )
    ),
    re.IGNORECASE,
)
ALTERNATIVE_PATTERN = re.compile(rf"Konstituert redakt{OE}r|Redakt{OE}r", re.IGNORECASE)
LINK_PATTERN = re.compile(
    r"""href\s*=\s*["']?(?:https?:)?//(?:www\.)?(?:"""
    r"nored\.no/Redaktoeransvar"
    r"|nored\.no/Redaktoerplakaten"
    r"|presse\.no/pfu/etiske-regler"
    r"|presse\.no/Etisk-regelverk"
    r"|no\.wikipedia\.org/wiki/V%C3%A6r_Varsom-plakaten"
    r")[^\"'\s>]*",
    re.IGNORECASE,
)

ABOUT_SEGMENTS = re.compile(
    r"(?:om|om-?oss|om-(?:avisa|avisen|avis|nettavisen|nettavisa|nettstedet|redaksjonen|bloggen|tidsskriftet|oss-\S*)"
    r"|kontakt|kontakt-?oss|kontakt-\S+|kontaktinfo|kontakt-informasjon|about|about-?us|redaksjon|redaksjonen"
    r"|redaksjonelt|ansatte|medarbeidere|presseetikk|etikk|etiske-retningslinjer|redaktoransvar|ansvarlig-redaktor"
    r"|impressum|info|informasjon|oss)"
)

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
SPACES = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+")

_KONST = r"(?:(?:konstituert|konst\.?|fungerende|fung\.)\s*)"
_RED_O = r"(?:ø|oe|o)"
# These run over lowercased text (see evidence._matches): no IGNORECASE and no look-behind in front, so
# the regex engine can skip ahead to candidate positions; the left word boundary is checked in code.
MAIN_LABEL = re.compile(
    rf"(?:{_KONST})?"
    r"(?:"
    rf"ansvarle?ge?\s+redakt{_RED_O}r(?:er|ar|ane|ene)?"
    rf"|ansvarlige?\s+redakt{_RED_O}r(?:er|ar|ane|ene)?"
    r"|ansvarle?i?g\s+red\."
    rf"|ansv\.\s*redakt{_RED_O}r|ansv\s+redakt{_RED_O}r|ansvredakt{_RED_O}r"
    r"|ansv\.\s*red\.?|ansv\s+red\."
    r"|ans\.\s*red\."  # "Ans. red.: Kari Nordmann" (abbreviated without the v)
    rf"|sjefs?redakt{_RED_O}r(?:er)?"
    r"|sjefs?red\.?"
    r"|v[aá]ldodoaimmaheaddji"
    r")(?!\w)"
    r"(?:\s*\(\s*(?:konst|konstituert|fung|fungerende)\.?\s*\))?",
)
EDITOR_LABEL = re.compile(rf"(?:{_KONST})?(?:redaktør|doaimmaheaddji)(?!\w)")
EDITOR_WORD = re.compile(r"redaktør(?:en|er|ar|ane|ene)?(?!\w)")  # the compound's front is found in code
FOREIGN_LABELS = (
    ("sv", re.compile(r"(?:ansvarig\s+utgivare|chefredaktör(?:er)?|ansvarig\s+redaktör|publisher\s+och\s+"
                      r"chefredaktör)(?!\w)")),
    ("da", re.compile(r"(?:ansvarshavende\s+(?:chef)?redaktør|ansvh?\.?\s*chefredaktør|chefredaktør"
                      r"|ansvarshavende)(?!\w)")),
    ("de", re.compile(r"(?:chefredakteur(?:in)?|chefredaktion|v\.\s?i\.\s?s\.\s?d\.\s?p\.|verantwortlich"
                      r"(?:e|er)?\s+redakteur(?:in)?)(?!\w)")),
    ("en", re.compile(r"(?:editor[- ]in[- ]chief|responsible\s+editor|managing\s+editor)(?!\w)")),
)
CODE_NAME = re.compile(r"v(?:æ|ae|a)r[\s-]*varsom|redakt(?:ø|oe|o)r[\s-]*plakat")
CODE_NAME_ANYCASE = re.compile(CODE_NAME.pattern, re.IGNORECASE)
COMMITMENT = re.compile(
    r"(?:arbeider|arbeidar|jobber|jobbar|følger|følgjer|fylgjer|bundet|bunden|forplikt\w*|tilslutt\w*|etter"
    r"|respekterer|holder\s+seg\s+til|held\s+seg\s+til|etterlever|underlagt|i\s+tråd\s+med|basert\s+på"
    r"|bygger\s+på|slutter\s+oss\s+til|ansvar)",
    re.IGNORECASE,
)
# What may follow a label before the name: "(konst.)", "og adm. direktør", "/ daglig leder".
CO_TITLE_WORDS = (r"adm\.?|administrerende|dir\.?|direktør|daglig|dagleg|leiar|leder|publisher|ceo|utgiver|utgjevar"
                  r"|konsernsjef|nyhetssjef|nyheitssjef|redaksjonssjef|konst\.?|konstituert|fungerende|ansvarlig"
                  r"|ansvarleg|redaktør|sjefredaktør|nettredaktør|nyhetsredaktør|digitalredaktør|i|for|avisa|avisen"
                  r"|administrerande|styreleder|eier|eigar|og")
CO_TITLE = re.compile(rf"\s*(?:og|&|/|,|\+)\s*(?:(?:{CO_TITLE_WORDS})(?!\w)\s*)+", re.IGNORECASE)
QUALIFIER = re.compile(r"\s*\([^()\n]{0,40}\)")

NOT_NAMES = {
    "nettsjef", "ansvarlig", "ansvarleg", "redaktør", "sjefredaktør", "nyhetsredaktør", "daglig", "dagleg",
    "leder", "telefon", "tlf", "tlf.", "e-post", "epost", "email", "e-mail", "adresse", "kontakt", "org",
    "org.nr", "org.nr.", "postadresse", "besøksadresse", "sentralbord", "tips", "mail", "redaksjonen",
    "annonse", "annonser", "personvern", "copyright", "alle", "vi", "les", "her", "se", "om", "når", "the",
    "og", "nyheter", "sport", "kultur", "abonnement", "kundeservice", "utgiver", "utgitt", "publisert",
    "oppdatert", "foto", "faksimile", "nettavisen", "avisa", "avisen", "redaksjon", "vaktsjef", "desk",
    "politisk", "publisher", "ceo", "adm", "adm.", "direktør", "administrerende", "konstituert", "konst.",
    "fungerende", "nrk", "as", "asa", "ansv", "ansv.", "red", "red.", "sjefred", "sjefred.", "mer", "mobil",
    "ved", "hos", "til", "fra", "for", "med", "av", "i", "på", "is", "er", "editor", "chief", "press",
    "presse", "redaktørplakaten", "vær", "varsom", "varsom-plakaten", "meny", "forsiden", "logg", "inn",
    "søk", "kontaktinformasjon", "informasjon", "kontakt:", "ansvarlige", "redaktører",
    # navigation and press bodies, which follow a label in a footer more often than a person does
    "min", "side", "oss", "abonner", "annonsere", "cookies", "cookie", "innstillinger", "e-avis", "eavis",
    "arkiv", "vilkår", "sitemap", "rss", "facebook", "twitter", "instagram", "linkedin", "youtube", "tiktok",
    "snapchat", "jobb", "ledige", "stillinger", "pressemeldinger", "hjem", "forside", "norsk", "norske",
    "presseforbund", "presseforbundet", "pfu", "faglige", "utvalg", "redaktørforening", "redaktørforeningen",
    "landslaget", "lokalaviser", "fagpressen", "mediebedriftene", "medietilsynet", "personvernerklæring",
    "nyhetsbrev", "podkast", "video", "tv", "radio", "debatt", "meninger", "lokalt", "været", "været:",
}
ORGANISATION_WORDS = {"as", "asa", "ab", "a/s", "gmbh", "ag", "ltd", "inc", "llc", "sa", "verlag", "forlag", "media",
                      "medier", "mediehus", "group", "gruppen", "konsern", "stiftelse", "stiftelsen", "avis",
                      "avisa", "avisen", "redaksjon", "redaksjonen", "news", "nyheter", "tidende", "kommune"}
PARTICLES = {"von", "van", "de", "der", "den", "af", "da", "di", "du", "la", "le", "ter", "dos", "del", "bin"}
INITIAL = re.compile(r"[^\W\d_]\.(?:[^\W\d_]\.)*")
NAME_TOKEN = re.compile(r"[^\W\d_][^\W\d_'’\-.]*(?:[-'’][^\W\d_]+)*\.?")

# Links and URLs of the codes.
CODE_HOSTS = ("presse.no", "nored.no", "redaktor.no", "redaktorforeningen.no", "pfu.no")
CODE_PATHS = re.compile(
    r"v(?:ae|æ|%c3%a6)r[-_ ]?varsom|redakt(?:o|oe|ø|%c3%b8)r[-_ ]?plakat|redakt(?:o|oe|ø)r[-_ ]?ansvar"
    r"|etiske?[-_ ]regl|etisk[-_ ]regelverk|presseetikk|pfu/etisk",
    re.IGNORECASE,
)
CODE_URL_IN_TEXT = re.compile(
    r"(?:https?:)?//(?:www\.)?(?:presse\.no|nored\.no|redaktor\.no|pfu\.no|no\.wikipedia\.org)/[^\s\"'<>]{0,200}",
)

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "br", "center", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "html", "li", "main", "menu", "nav", "ol", "option", "p", "pre", "section", "summary", "table",
    "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul", "button", "select", "label", "legend",
}
HIDDEN_TAGS = {"script", "style", "template", "svg", "math", "head", "iframe", "object", "noembed"}
HTML_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]{0,10})\b[^<>]{0,2000}>|<!--[^<>]{0,2000}-->")

# Every pattern evidence._scan looks for contains one of these (lowercase): a script without any is not read.
SCRIPT_GATE = ("ansv", "redakt", "sjefred", "sjefsred", "doaimmaheaddji", "utgivare", "editor", "varsom",
               "presse.no", "nored.no", "pfu.no", "wikipedia.org", "v.i.s.d.p", "v. i. s. d. p")

JS_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([nrt])|(/))")

LEAD_WORDS = {"kontakt", "vår", "vårt", "var", "our"}
SEPARATORS = set(".|·•,;:–—-(/»«\"'[]>*!?")

# For each pattern, words one of which every match holds (checked before the pattern runs).
PATTERN_GATES = {
    MAIN_LABEL: ("ansv", "ans.", "sjef", "doaimmaheaddji"),
    EDITOR_LABEL: ("redaktør", "doaimmaheaddji"),
    EDITOR_WORD: ("redaktør",),
    CODE_NAME: ("varsom", "plakat"),
    CODE_URL_IN_TEXT: ("//",),
    **{pattern: ("ansv", "redakt", "utgivare", "editor", "v.") for _, pattern in FOREIGN_LABELS},
}

# Every link evidence._classify_href recognises holds one of these (its host): other links are not parsed.
CODE_HREF_WORDS = tuple(h for h in CODE_HOSTS if not h.startswith("redaktor")) + ("redaktor", "wikipedia.org")

# The triggers as UTF-8 bytes, looked for in the encoded page lowercased (ASCII lowercasing of the bytes
# is several times cheaper than str.lower() and finds the same ASCII triggers); the mojibake one ("ã¸")
# is looked for in both cases.
TRIGGER_BYTES = tuple(sorted({t.encode() for t in TRIGGERS}
                             | {t.upper().encode() for t in TRIGGERS if not t.isascii()}))
# German, Danish and Swedish "Redaktion" (the newsroom: on nearly every German news page) is in no label
# (Norwegian writes "redaksjon"; German "Chefredaktion" triggers as "chefred"): a "redakt" that only
# ever begins "redaktion" triggers nothing. Neither word overlaps itself, so the difference of their
# counts is the number of other "redakt"s.
TRIGGER_UNLESS_ALL = {b"redakt": b"redaktion"}
# "editor" alone finds only English editor lines, which never count (a front page records them: they
# explain a rejection); on a supporting page they could not help the host, so they do not get it read,
# unless "responsible" is its first word (<meta name="responsible-editor" content="Kari Nordmann"> is a
# declaration, read as the walker reads a meta's name: its words parted by "-", "_", ":", "." or spaces).
# An English page holds "editor" and "responsible" apart on a fifth of the pages that trigger at all.
SUPPORTING_TRIGGER_BYTES = tuple(t for t in TRIGGER_BYTES if t != b"editor")
RESPONSIBLE_EDITOR_BYTES = re.compile(rb"responsible[-_:.\s]*editor")
