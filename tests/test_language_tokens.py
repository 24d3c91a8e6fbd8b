"""Language identification (gielladetect) and tokens with offsets (nb-tokenizer)."""

from __future__ import annotations

import nb_tokenizer
import pytest

from warc2corpus.text import language, tokens

BOKMAAL = (
    "Regjeringen la fram statsbudsjettet i dag, og finansministeren sier at økonomien er sterkere enn "
    "ventet. Arbeidsledigheten er lav, men mange husholdninger merker fortsatt de høye strømprisene og renten."
)
NYNORSK = (
    "Regjeringa la fram statsbudsjettet i dag, og finansministeren seier at økonomien er sterkare enn "
    "venta. Arbeidsløysa er låg, men mange hushald merkar framleis dei høge straumprisane og renta. Kva skjer no?"
)
NORTH_SAMI = (
    "Sámedikki dievasčoahkkin lea mearridan ahte sámegiella galgá leat oidnosis buot almmolaš dieđuin. "
    "Mii áigut bargat dan ovdii ahte sámi mánát besset oahppat iežaset giela skuvllas, ja ahte vánhemat "
    "ožžot dieđu giellaoahpahusa birra."
)
ENGLISH = (
    "The government presented its budget today, and the finance minister said the economy is stronger "
    "than expected. Unemployment is low, but many households still feel the high electricity prices and interest rates."
)

# Text in languages none of the models knows (or knows poorly), which the models alone read as one of
# the archive's languages (the test checks that they do).
OTHER_LANGUAGES = {
    "cym": "Cyflwynodd y llywodraeth y gyllideb heddiw ac mae'r gweinidog cyllid yn dweud bod yr economi yn "
           "gryfach na'r disgwyl. Mae diweithdra yn isel, ond mae llawer o aelwydydd yn dal i deimlo prisiau "
           "trydan uchel.",
    "sot": "Mmuso o hlahisitse tekanyetso kajeno mme letona la ditjhelete le re moruo o matla ho feta kamoo ho "
           "neng ho lebeletswe. Ho hloka mesebetsi ho tlase, empa malapa a mangata a ntse a utlwa ditheko tse "
           "phahameng tsa motlakase.",
    "ita": "Il governo ha presentato oggi il bilancio e il ministro delle finanze dice che l'economia è più forte "
           "del previsto. La disoccupazione è bassa, ma molte famiglie sentono ancora i prezzi alti "
           "dell'elettricità.",
    "kor": "정부는 오늘 예산안을 발표했고 재무장관은 경제가 예상보다 강하다고 말했다. 실업률은 낮지만 많은 가구가 "
           "여전히 높은 전기 요금과 금리를 느끼고 있다.",
    "bos": "Vlada je danas predstavila proračun, a ministar financija kaže da je gospodarstvo snažnije nego što se "
           "očekivalo. Nezaposlenost je niska, ali mnoga kućanstva i dalje osjećaju visoke cijene struje.",
}


# --- language.identify ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "Hei!", "Dette er en kort tekst.", "Ni ord er for lite til å si noe.",
     "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 kr. 200 000 , . ; : -"],
)
def test_short_text_is_undetermined(text):
    assert language.identify(text) == "und"


@pytest.mark.parametrize(
    "text, expected",
    [(BOKMAAL, "nob"), (NYNORSK, "nno"), (NORTH_SAMI, "sme"), (ENGLISH, "eng")],
    ids=["nob", "nno", "sme", "eng"],
)
def test_identify(text, expected):
    assert len(text.split()) >= 25
    assert language.identify(text) == expected


@pytest.mark.parametrize("code", sorted(OTHER_LANGUAGES))
def test_text_in_another_language_is_not_read_as_the_archives(code, monkeypatch):
    """py3langid's second reading names the language (its probability alone, or with the archive's
    readings all unlikely: the Croatian text, which it shares out among Bosnian, Croatian, Serbian)."""
    text = OTHER_LANGUAGES[code]
    assert language.identify(text) == code
    read = language.of_paragraphs([text, "Kort avsnitt.", text])
    assert read.language == code and read.paragraphs == [code, "und", code]
    monkeypatch.setattr(language, "other_language", lambda text: None)
    assert language.identify(text) in language.ARCHIVE_LANGUAGES  # what the models alone make of it
    assert language.of_paragraphs([text, text]).language in language.ARCHIVE_LANGUAGES


def test_the_archives_languages_have_no_other_reading():
    for text in (BOKMAAL, NYNORSK, NORTH_SAMI):
        assert language.other_language(text) is None
    # A document in the archive's languages keeps a paragraph py3langid would read otherwise.
    document = [BOKMAAL, NYNORSK, OTHER_LANGUAGES["cym"]]
    assert language.of_paragraphs(document).paragraphs[:2] == ["nob", "nno"]


def test_the_second_reader_reads_py3langids_model_as_it_does(tmp_path, monkeypatch, caplog):
    """Its model's arrays, decompressed once into the cache, give the identifier py3langid's own reading
    of its file gives; the next process reads the copy (nothing decompressed again); without a cache to
    write to, py3langid's own reading serves, and says so."""
    import lzma

    import numpy as np
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    texts = [BOKMAAL, NYNORSK, NORTH_SAMI, *OTHER_LANGUAGES.values()]
    theirs = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    monkeypatch.setenv("WARC2CORPUS_CACHE", str(tmp_path / "cache"))
    language._second_reader.cache_clear()
    try:
        for made_now in (True, False):
            ours = language._second_reader()
            assert isinstance(ours.nb_ptc, np.memmap)
            assert np.array_equal(ours.nb_ptc, theirs.nb_ptc) and np.array_equal(ours.nb_pc, theirs.nb_pc)
            assert ours.nb_classes == theirs.nb_classes and ours.tk_output == theirs.tk_output
            assert ours.tk_nextmove == theirs.tk_nextmove and ours.tk_row == theirs.tk_row
            assert [ours.rank(text)[:5] for text in texts] == [theirs.rank(text)[:5] for text in texts]
            copies = list((tmp_path / "cache").iterdir())
            assert len(copies) == 1 and sorted(p.name for p in copies[0].iterdir()) == sorted(
                f"{name}.npy" for name in language.SECOND_READER_ARRAYS)
            if made_now:  # the next process must not decompress it again
                monkeypatch.setattr(lzma, "open", None)
            language._second_reader.cache_clear()
        monkeypatch.undo()
        (tmp_path / "not a folder").write_text("")
        monkeypatch.setenv("WARC2CORPUS_CACHE", str(tmp_path / "not a folder"))
        with caplog.at_level("WARNING", logger=language.__name__):
            ours = language._second_reader()
        assert "read from its own file" in caplog.text and not isinstance(ours.nb_ptc, np.memmap)
        assert [ours.rank(text)[:5] for text in texts] == [theirs.rank(text)[:5] for text in texts]
    finally:
        language._second_reader.cache_clear()


def test_ten_words_are_enough_to_classify():
    text = "Regjeringen la fram statsbudsjettet i dag og finansministeren sier økonomien"
    assert len(text.split()) == language.MIN_WORDS
    assert language.identify(text) != "und"


@pytest.mark.parametrize("text", [
    "", "   ", "1 2 3 4 5 6 7 8 9 10 11 12",
    "Regjeringen la fram statsbudsjettet i dag og finansministeren sier økonomien",  # ten
    "Regjeringen la fram statsbudsjettet i dag og finansministeren sier",  # nine
    "Regjeringen la fram 2026-budsjettet i dag , og finans-ministeren sier – 3,5 % – økonomien",  # ten, and others
    "a b c d e f g h i 10 11 12 ½ ² — … «» j",  # ten words among numbers and signs
])
def test_enough_words_counts_as_words_does(text):
    assert language.enough_words(text) == (len(language.words(text)) >= language.MIN_WORDS)


def test_identify_uses_only_the_start_of_long_texts():
    """Only the first MAX_CHARS characters count: Bokmål first, then far more English, is Bokmål."""
    start = " ".join([BOKMAAL] * (language.MAX_CHARS // len(BOKMAAL) + 1))
    assert len(start) > language.MAX_CHARS
    long_text = start + " " + " ".join([ENGLISH] * 100)
    assert long_text.count("government") > long_text.count("Regjeringen")
    assert language.identify(long_text) == "nob"
    assert language.identify(" ".join([ENGLISH] * 100) + " " + start) == "eng"


def test_the_classifier_reads_gielladetects_models_as_it_does():
    """Our reading of gielladetect's model files gives what its own Classifier reads: every character
    and word model's ranks (in order), frequencies, n-gram set and inverse ranks; an unknown language
    is no model."""
    from gielladetect.text_cat import Classifier

    theirs, ours = Classifier(langs=list(language.LANGUAGES)), language.classifier()
    assert list(ours.cmodels) == list(theirs.cmodels) and ours.langs == theirs.langs
    assert list(ours.wmodels) == list(theirs.wmodels) and all(lang in ours.wmodels for lang in theirs.wmodels)
    assert ours.DROP_RATIO == theirs.DROP_RATIO
    for lang in language.LANGUAGES:
        for mine, its in ((ours.cmodels[lang], theirs.cmodels[lang]), (ours.wmodels[lang], theirs.wmodels[lang])):
            assert list(mine.ngrams.items()) == list(its.ngrams.items())
            assert mine.freq == its.freq and mine.ngramskeyset == its.ngramskeyset
            assert getattr(mine, "invrank", None) == getattr(its, "invrank", None)
    with pytest.raises(KeyError):
        ours.wmodels["xyz"]


def test_word_models_are_read_when_first_asked_for():
    """A process reads a language's word model when a text first needs it, not at start-up."""
    language.classifier.cache_clear()
    try:
        fresh = language.classifier()
        assert not fresh.wmodels.loaded
        assert "urd" in fresh.wmodels and "xyz" not in fresh.wmodels and list(fresh.wmodels) == list(language.LANGUAGES)
        assert not fresh.wmodels.loaded
        assert {"freq", "invrank"} <= set(vars(fresh.wmodels["urd"]))
        # The tables only gielladetect's own classifier reads are made when first read (70 MB of 160).
        assert not {"ngrams", "ngramskeyset"} & set(vars(fresh.wmodels["urd"]))
        assert fresh.wmodels["urd"].ngrams and "ngrams" in vars(fresh.wmodels["urd"])
        assert list(fresh.wmodels.loaded) == ["urd"]
    finally:
        language.classifier.cache_clear()


@pytest.mark.parametrize("text", [BOKMAAL, NYNORSK, NORTH_SAMI, ENGLISH, "Hei!", "", "12 345"],
                         ids=["nob", "nno", "sme", "eng", "short", "empty", "digits"])
def test_char_distances_are_gielladetects(text):
    """The character models' distances, computed for all languages at once, are gielladetect's own
    ``CharModel.compare`` for each."""
    from gielladetect.text_cat import CharModel

    models = language.classifier().cmodels
    theirs = [models[lang].compare(CharModel().of_text(text)) for lang in models]
    tokens = language.textcat_tokens(text)
    assert language.char_distances(tokens, list(models)) == theirs
    assert language.char_distances(tokens, ["eng", "nob"]) == [theirs[list(models).index("eng")],
                                                                 theirs[list(models).index("nob")]]



def _random_texts(count: int, seed: int) -> list[str]:
    """Texts of words made at random: letters the models know and some none knows (Cyrillic, Greek,
    digits, signs), words that recur (ties in the counts), texts from empty to long enough that their
    profile is cut at NB_NGRAMS."""
    import random

    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyzæøåäöáčđŋšŧžABCDEFGHIJKLMNOPQRSTUVWXYZÆØÅ" + "жщюяфыλψωβ" + "0123456789-'.,"
    vocabulary = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) for _ in range(400)]
    return [" ".join(rng.choice(vocabulary[:rng.choice([5, 40, 400])]) for _ in range(rng.choice([0, 1, 3, 20, 80, 300])))
            for _ in range(count)]


def test_char_distances_are_gielladetects_on_random_texts():
    """On 300 random texts, alone and together in one call, the distances are gielladetect's own: its
    profile's ranks (counts, ties in first occurrence, cut at NB_NGRAMS) and its comparison."""
    from gielladetect.text_cat import CharModel

    models = language.classifier().cmodels
    texts = _random_texts(300, seed=11)
    theirs = [[models[lang].compare(CharModel().of_text(text)) for lang in models] for text in texts]
    token_lists = [language.textcat_tokens(text) for text in texts]
    assert [language.char_distances(tokens, list(models)) for tokens in token_lists] == theirs
    assert language.char_distances_of_many(token_lists, list(models)) == theirs


def test_unknown_ngrams_are_given_ids_anew_when_too_many(monkeypatch):
    """The ids of n-grams no model knows are started afresh once there are more than _GRAM_IDS_MAX:
    the distances stay gielladetect's across the restart."""
    from gielladetect.text_cat import CharModel

    monkeypatch.setattr(language, "_GRAM_IDS_MAX", len(language._char_table()[1]) + 50)
    language._gram_ids.cache_clear()
    language._word_gram_ids.cache_clear()
    models = language.classifier().cmodels
    for text in _random_texts(40, seed=12):
        theirs = [models[lang].compare(CharModel().of_text(text)) for lang in models]
        assert language.char_distances(language.textcat_tokens(text), list(models)) == theirs
        assert len(language._gram_ids()) <= language._GRAM_IDS_MAX + 4 * len(text) + 8
    language._gram_ids.cache_clear()
    language._word_gram_ids.cache_clear()


def test_distances_of_many_profiles_are_each_ones_own():
    """A document's paragraphs are compared in one matrix: each profile's distances are the ones it
    gets alone, empty profiles (0 to every language) among them, wherever they stand."""
    texts = [BOKMAAL, "", NYNORSK, "Hei!", NORTH_SAMI, "", ENGLISH]
    token_lists = [language.textcat_tokens(text) for text in texts]
    languages = ["nob", "nno", "dan", "sme", "eng"]
    assert language.char_distances_of_many(token_lists, languages) == [language.char_distances(tokens, languages)
                                                                       for tokens in token_lists]
    assert language.char_distances_of_many([[]], languages) == [[0] * len(languages)]


def test_paragraph_languages_are_each_paragraphs_identification():
    """of_paragraphs labels each paragraph as ``identify`` labels its start, among the whole text's
    candidates, however the work is batched."""
    paragraphs = [BOKMAAL, "Kort avsnitt.", NYNORSK, ENGLISH, NORTH_SAMI, BOKMAAL * 3]
    whole = "\n".join(paragraphs)
    candidates = tuple(dict.fromkeys(language.rank(whole[:language.MAX_CHARS])[:language.PARAGRAPH_CANDIDATES]
                                     + list(language.ALWAYS_CANDIDATES)))
    expected = [language.identify(p[:language.PARAGRAPH_CHARS], candidates) for p in paragraphs]
    assert expected == ["nob", "und", "nno", "eng", "sme", "nob"]
    assert language.of_paragraphs(paragraphs).paragraphs == expected

TIED = "Det var stas å pakke ut og se på all maten som kom med bilen i går."  # Bokmål and Nynorsk alike


def test_a_sentence_the_standards_tie_on_is_reported_tied():
    """Function words, dictionaries and spelling leave Bokmål and Nynorsk tied: the choice is the
    character models', and the decision says so; a sentence one standard's words decide is not tied."""
    assert set(language.scandinavian_decision(TIED, language.rank(TIED))[1]) >= {"nob", "nno"}
    clear = "Eg veit ikkje kva dei skal gjere med skulen no, men dei må bestemme seg snart."
    assert language.scandinavian_decision(clear, language.rank(clear)) == ("nno", ())


@pytest.mark.parametrize("document, expected", [(BOKMAAL, "nob"), (NYNORSK, "nno")])
def test_a_tied_paragraph_takes_its_documents_standard(document, expected):
    paragraphs = [document, TIED, document]
    assert language.of_paragraphs(paragraphs).paragraphs == [expected, expected, expected]
    # Read alone (as the eval compares), the tied paragraph is what identify makes of it among the
    # document's candidates: in the Bokmål article, the character models' Nynorsk.
    whole = "\n".join(paragraphs)
    candidates = tuple(dict.fromkeys(language.rank(whole[:language.MAX_CHARS])[:language.PARAGRAPH_CANDIDATES]
                                     + list(language.ALWAYS_CANDIDATES)))
    alone = language.of_paragraphs(paragraphs, in_context=False).paragraphs
    assert alone == [expected, language.identify(TIED, candidates), expected]
    if expected == "nob":
        assert alone[1] == "nno"


def test_a_lead_of_one_function_word_the_dictionaries_hardly_back_takes_the_documents_standard():
    """"Den som gjorde det største hoppet på listene, var Alfred Bjørlo i Venstre." (a Nynorsk paper's)
    leads to Bokmål by a single function word: alone it reads Bokmål, in a Nynorsk article Nynorsk, in
    a Bokmål one Bokmål; a lead of three Bokmål words ("hvilken", "hvilket") is no tie."""
    near = "Den som gjorde det største hoppet på listene, var Alfred Bjørlo i Venstre."
    assert language.scandinavian_decision(near, language.rank(near)) == ("nob", ("nob", "nno"))
    assert language.of_paragraphs([NYNORSK, near, NYNORSK]).paragraphs == ["nno", "nno", "nno"]
    assert language.of_paragraphs([NYNORSK, near, NYNORSK], in_context=False).paragraphs[1] == "nob"
    assert language.of_paragraphs([BOKMAAL, near, BOKMAAL]).paragraphs == ["nob", "nob", "nob"]
    backed = "Den som gjorde det største hoppet på listene, var hvilken kvinne fra hvilket parti?"
    assert language.scandinavian_decision(backed, language.rank(backed))[1] == ()


def test_a_tied_paragraph_keeps_its_own_label_without_a_decided_scandinavian_paragraph():
    """Only the paragraphs that are not tied make the document's standard; a document of a language
    the tie does not hold (North Sámi) leaves the tied paragraph as it read alone."""
    alone = language.identify(TIED)
    assert language.of_paragraphs([TIED, TIED]).paragraphs == [alone, alone]
    assert language.of_paragraphs([NORTH_SAMI, TIED, NORTH_SAMI]).paragraphs[1] == \
        language.of_paragraphs([NORTH_SAMI, TIED, NORTH_SAMI], in_context=False).paragraphs[1]


@pytest.mark.parametrize("text, expected", [
    (BOKMAAL, "nob"), (NYNORSK, "nno"), (ENGLISH, "eng"),
    ("Eg veit ikkje kva dei skal gjere med skulen no, men dei må bestemme seg snart.", "nno"),
    # A credit line: English function words make a fifth of its words (4 of 17), and no standard's any.
    ("(Reporting by Kari Nordmann, Ola Hansen and Jens Berg in Oslo; Editing by Per Olsen, Anne Berg)", "eng"),
])
def test_function_words_that_leave_no_doubt_decide_without_the_character_models(text, expected, monkeypatch):
    """A paragraph whose function words make a quarter of its words and outnumber every other
    standard's by two (or, English, make a fifth of them and three times any standard's) is that language
    without a character profile: the models are not asked, alone or in a document."""
    assert language._told_by_function_words(text, list(language.LANGUAGES)) == expected

    def no_profiles(*args, **kwargs):
        raise AssertionError("the character models were asked")

    monkeypatch.setattr(language, "char_distances_of_many", no_profiles)
    assert language.of_paragraphs([text, text], in_context=False).paragraphs == [expected, expected]


@pytest.mark.parametrize("text, languages", [
    (TIED, list(language.LANGUAGES)),       # Bokmål and Nynorsk alike: the character models and the ties
    (NORTH_SAMI, list(language.LANGUAGES)),  # no Scandinavian or English function words
    (ENGLISH, ["nob", "nno", "sme"]),        # English not among the languages compared
    ("Regjeringen Støre, Stortinget, Høyre, Arbeiderpartiet, Fremskrittspartiet, Senterpartiet, Venstre, KrF, SV "
     "og Rødt", list(language.LANGUAGES)),  # names: one function word
])
def test_text_its_function_words_leave_in_doubt_goes_to_the_character_models(text, languages):
    assert language._told_by_function_words(text, languages) is None


@pytest.mark.parametrize("text, words", [
    ("Les mer på Aftenposten.no og nrk.no i dag", ["les", "mer", "på", "og", "i", "dag"]),  # "no" is Nynorsk
    ("Skriv til kari@post.de i dag no", ["skriv", "til", "i", "dag", "no"]),
    ("Se https://www.zeit.de/ikkje i dag no", ["se", "i", "dag", "no"]),
    ("Det var no. Så kom dei.", ["det", "var", "no", "så", "kom", "dei"]),  # a sentence's end, no address
])
def test_web_addresses_hold_no_function_words(text, words):
    assert language._function_word_tokens(text)[1] == words


def test_the_documents_candidate_languages_are_ranked_on_its_start(monkeypatch):
    """The whole text's likeliest languages, which the paragraphs the function words leave in doubt are
    compared with, are ranked on its first CANDIDATE_CHARS characters: the cost is bounded."""
    ranked = []
    real_rank = language.rank

    def recorded(text, candidates=None):
        ranked.append(len(text))
        return real_rank(text, candidates)

    monkeypatch.setattr(language, "rank", recorded)
    paragraphs = [TIED] * 40  # tied paragraphs: the character models are asked
    assert len("\n".join(paragraphs)) > language.CANDIDATE_CHARS
    assert language.of_paragraphs(paragraphs).language in ("nob", "nno")
    assert ranked and max(ranked) <= language.CANDIDATE_CHARS


def test_an_english_byline_is_english():
    """The character models read this Danish and Nynorsk (the dev half's Big9); its function words
    make it English."""
    byline = "Contributing to this report were Associated Press writers George M. Walsh and Chris Carola"
    assert language.of_text(byline) == "eng"
    assert language.of_paragraphs([byline]).paragraphs == ["eng"]


# --- tokens.tokenize ----------------------------------------------------------------------------------

SAMPLES = [
    "Den 17. mai kom 10 000 mennesker for å se P. A. Munch sitt maleri.",
    "Han sa: «Hei!» – og gikk. CO2-utslippene økte med 3,14 prosent, jf. § 12 i loven...",
    "  Innrykk\tog  doble   mellomrom , e-post: kari@example.no, https://nrk.no/nyheter?id=1  ",
    "Blåbærsyltetøy på brødskiva, takk! Ærlig talt – ÆØÅ æøå.",
    "",
]


@pytest.mark.parametrize("paragraph", SAMPLES)
def test_tokens_equal_nb_tokenizer_and_offsets_point_at_them(paragraph):
    words, starts = tokens.tokenize(paragraph)
    assert words == nb_tokenizer.tokenize(paragraph)
    assert len(starts) == len(words)
    assert starts == sorted(starts)
    for word, start in zip(words, starts):
        assert paragraph[start:start + len(word)] == word



def test_the_tokens_pattern_is_nb_tokenizers_gathered_by_first_letter():
    """The pattern tokens.tokenize runs is nb-tokenizer's with its abbreviations gathered under their
    first letter: every abbreviation it knows, alone, in a sentence, glued to neighbours or cut short,
    comes out as nb-tokenizer tokenizes it."""
    import re

    abbreviations = [a for a in tokens.alternatives(nb_tokenizer.regex.pattern) if tokens._FIRST_LETTERS.fullmatch(a)]
    assert len(abbreviations) > 200
    assert "|".join(tokens.alternatives(nb_tokenizer.regex.pattern)) == nb_tokenizer.regex.pattern
    examples = set()
    for alternative in abbreviations:
        # strings the alternative matches: classes by their first member, optional parts in and left out
        text = re.sub(r"\[(.)[^]]*\]", r"\1", alternative.replace("\\s*", " "))
        for variant in (re.sub(r"\\?(.)\?", "", text), text.replace("?", "")):
            variant = re.sub(r"\\(.)", r"\1", variant)
            examples.update({variant, variant[:-1], variant.upper(), variant.capitalize()})
    assert {"adm.", "Hr.", "Hr", "AD.", "A.D."} <= examples
    for example in sorted(examples):
        for paragraph in (example, f"Det var {example} Hansen sa.", f"({example})", f"{example}{example}", f"x{example}"):
            assert tokens.tokenize(paragraph)[0] == nb_tokenizer.tokenize(paragraph), paragraph
    assert tokens.by_first_letter("ab|[Aa]c|d|(?<=x)e|f") == "a(?:b|c)|A(?:c)|d(?:)|(?<=x)e|f"


def test_tokens_of_real_news_are_nb_tokenizers(samples):
    """Every paragraph of the fundus ground truth (news in a dozen languages) tokenizes as with
    nb-tokenizer."""
    import json

    lines = (samples / "news_fundus" / "ground_truth_flat.jsonl").read_text(encoding="utf-8").splitlines()
    paragraphs = [p for line in lines for p in json.loads(line)["body_paragraphs"]]
    assert len(paragraphs) > 500
    for paragraph in paragraphs:
        assert tokens.tokenize(paragraph)[0] == nb_tokenizer.tokenize(paragraph), paragraph

def test_norwegian_special_tokens():
    paragraph = "Den 17. mai kom 10 000 mennesker for å se P. A. Munch sitt maleri."
    words, starts = tokens.tokenize(paragraph)
    assert words == [
        "Den", "17.", "mai", "kom", "10 000", "mennesker", "for", "å", "se", "P.", "A.", "Munch",
        "sitt", "maleri", ".",
    ]
    assert starts[:5] == [0, 4, 8, 12, 16]
    assert starts[-1] == len(paragraph) - 1


def test_empty_paragraph():
    assert tokens.tokenize("") == ([], [])
