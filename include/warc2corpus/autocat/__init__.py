"""autoCat: does a host declare a responsible editor?

Two classifiers live here.

* :func:`score_page_autocat2` is the National Library's autoCat2 baseline, kept for comparison
  (``warc2corpus autocat-eval`` prints both): 0.5 for the main pattern in the raw HTML, else 0.25 for
  "Redaktør", plus 0.5 for a link to the press-ethics codes.
* :func:`score_page` is ours. It reads a page as a person does, from its **text and structure**, not
  from the raw HTML: the visible text block by block (a label and its name may sit in separate
  elements, with or without a colon), entities and mojibake undone, link texts and targets,
  ``<meta>`` tags, JSON-LD and strings inside scripts. Each finding is an evidence item with a weight:

  ====================  ======  ==============================================================
  item                  weight  what it is
  ====================  ======  ==============================================================
  named_declaration     1.0     "Ansvarlig redaktør: Kari Nordmann" (and every variant below)
                                naming a person: strong evidence on its own
  declaration_label     0.5     the same label where no name can be tied to it
  named_editor          0.45    "Redaktør: Kari Nordmann" (an editor, not said to be responsible)
  editor_word           0.3     an isolated "redaktør" / "redaktøren" / role titles (weak)
  code_link             0.5     a link whose text names Vær Varsom-plakaten or Redaktørplakaten
                                (wherever it points), or a link to a code's home
  code_commitment       0.5     "Vi arbeider etter Vær Varsom-plakaten" in the text
  code_mention          0.3     the codes named without a link or a commitment (weak)
  press_body_link       0.3     a bare link to presse.no / nored.no / pfu.no (weak)
  ====================  ======  ==============================================================

  A page's score is the strongest editor item plus the strongest ethics item, at most 1; >= 0.75
  accepted, >= 0.3 uncertain (a person looks), below rejected. Danish, Swedish (and German,
  English) editor lines ("Ansvarig utgivare", "ansv. chefredaktør", "Chefredaktör") are recorded
  as ``foreign`` declarations and never count; on a page that carries one, or whose language is
  Danish or Swedish, the words shared with Danish ("redaktør") count for nothing and the page is
  never accepted on them.

Work is bounded whatever the input: at most ``MAX_HTML_CHARS`` characters of a page are read
(its head and its tail, where the footer is), every regular expression is linear, matches and
script text are capped, and the tree is walked without recursion.

The parts, in the order a page goes through them (each imports only those above it):

  vocabulary   the words, labels and patterns looked for (no logic)
  normalise    text as autoCat reads it: decoding, mojibake, spaces; the page's bounds
  urls         front page, "om oss"/"kontakt" page or article; hosts ignored
  walker       the page read: visible lines, links, meta, JSON-LD, script strings
  names        editors' names after a label
  verdicts     weights, a score's status, a host's verdict over time
  evidence     evidence found in the lines, and the page's score (score_page)
  baseline     autoCat2, the National Library's rules (score_page_autocat2)

This package's face is what the rest of warc2corpus uses; the parts' other names are theirs.
"""

from warc2corpus.autocat.baseline import score_page_autocat2
from warc2corpus.autocat.evidence import MAX_ITEMS_KEPT, score_page
from warc2corpus.autocat.names import parse_names
from warc2corpus.autocat.normalise import decode, fix_mojibake
from warc2corpus.autocat.urls import SUPPORTING_PAGES_PER_HOST, host_domain, host_is_skipped, is_front_page, page_kind
from warc2corpus.autocat.verdicts import (
    ACCEPT_AT, FOREIGN_PAGE_CAP, NOT_NEWS, UNCERTAIN_AT, HostAssessment, PageScore, assess_host, host_verdict,
    status_for,
)

__all__ = [
    "ACCEPT_AT", "FOREIGN_PAGE_CAP", "MAX_ITEMS_KEPT", "NOT_NEWS", "SUPPORTING_PAGES_PER_HOST", "UNCERTAIN_AT", "HostAssessment",
    "PageScore", "assess_host", "decode", "fix_mojibake", "host_domain", "host_is_skipped",
    "host_verdict", "is_front_page", "page_kind", "parse_names", "score_page", "score_page_autocat2", "status_for",
]
