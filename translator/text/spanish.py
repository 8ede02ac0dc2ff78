"""Spanish words the corpus does not show but its words make: regular verb forms, plurals, the feminine.

The training corpus' Spanish (`rerank.load_lexicon`, the lexicon) holds about
25,000 words, far from every form of them: a model that writes "bailaste",
"quemará", "ensamblarlo" or "fascinados" writes Spanish the corpus never
showed. `translator.text.garbling` takes a word outside the lexicon for one the
model spelled from pieces ("fregañado", "colepsar") and puts an English word in
its place; `is_form` spares the words that are a regular form of a lexicon
word: a verb's conjugation (of a verb the lexicon shows in any form), an infinitive or gerund with
pronouns after it ("convencerte", "mostrándolo"), an imperative with its accent
and pronouns ("muéstrame"), a plural ("baratos", "ciudades"), a feminine.
Irregular stems ("duermo") are not derived; a form the rules make from a
lexicon word is taken for Spanish even where Spanish does not use it
("demostra"), which leaves it as the model wrote it.

>>> lexicon = {"bailar", "calentó", "barato", "muestra", "convencer", "perro"}
>>> [is_form(word, lexicon) for word in ("bailaste", "calentaron", "baratas", "muéstrame", "convencerte", "perra",
...                                      "colepsar")]
[True, True, True, True, True, True, False]
"""

import re
import unicodedata

from translator.text import verbs
from translator.text.numbers import DIGITS, EN_WORD, SPANISH_WORD, spanish_number, word_value
from translator.text.verbatim import either_separators
from translator.text.words import (
    AR,
    CLITICS,
    CURRENCY,
    DIAS,
    ER,
    INITIALS,
    IR,
    MERIDIEM,
    MESES,
    MONTHS,
    SPANISH_ORDINALS,
    UNIT_WORDS,
    UNITS,
    VERBAL,
    WEEKDAY,
    WEEKDAYS,
    starts_sentence,
)

ACUTE = "\u0301"
# "primer" and "tercer", which Spanish cuts short before a noun.
SHORT_ORDINALS = [stem for stem in SPANISH_ORDINALS if stem.endswith("r")]
# The ordinals up to the tenth, each form ("primer", "sexta"; the corpus lacks some), and the signs of "2.º", "2.ª",
# which are letters to Unicode.
ORDINALS = {*SHORT_ORDINALS, "º", "ª"} | {stem + ending for stem in SPANISH_ORDINALS for ending in ("o", "a", "os", "as")}
# Determiners that say the noun after them is feminine; "su", "mi" or "cada" say nothing.
FEMININE = ("la", "las", "una", "unas", "esta", "estas", "esa", "esas", "aquella", "aquellas", "nuestra", "nuestras",
            "vuestra", "vuestras", "otra", "otras")
_FEMININE_ORDINAL = re.compile(rf"(?<!\w)((?i:{'|'.join(FEMININE)})\s+)(?:({'|'.join(SPANISH_ORDINALS)})o?|(\d+\.)º)(?!\w)")
_SHORT_ORDINAL = re.compile(rf"(?<!\w)((?i:{'|'.join(SHORT_ORDINALS)}))(?=\s*(?:[.,;:!?)»]|$))")


def _unaccented(word):
    """`word` without acute accents ("muéstra" -> "muestra"); "ñ" stays."""
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", word) if c != ACUTE))


def _bases(word):
    """`word`, and `word` without the pronouns after it where what is left can take them: an infinitive, or a
    gerund or imperative, which take an accent then ("mostrándolo", "muéstrame" -> "muestra")."""
    bases = [word]
    for clitic in CLITICS:
        rest = word[:-len(clitic)]
        if word.endswith(clitic) and len(rest) > 2 and (rest.endswith(("ar", "er", "ir"))
                                                         or ACUTE in unicodedata.normalize("NFD", rest)):
            bases.append(_unaccented(rest))
    return bases


def _nominal(word):
    """`word`, its singular ("baratos" -> "barato", "ciudades" -> "ciudad", "luces" -> "luz"), and their masculine
    ("barata" -> "barato")."""
    forms = [word]
    if len(word) > 3 and word.endswith("s") and word[-2] in "aeiouáéíóú":
        forms.append(word[:-1])
    if len(word) > 4 and word.endswith("es") and word[-3] not in "aeiouáéíóús":  # no "es" after an "s": "chanceses"
        forms.append(word[:-3] + "z" if word.endswith("ces") else word[:-2])
    return forms + [form[:-1] + "o" for form in forms if form.endswith("a")]


def is_form(word, lexicon):
    """Whether `word` (any case) is in `lexicon` (lower-case words) or a regular form of a word there (see above),
    or one of `ORDINALS`."""
    word = word.lower()
    if word in ORDINALS:
        return True
    for base in _bases(word):
        if any(form in lexicon for form in _nominal(base)):
            return True
        for endings in (AR, ER, IR):
            # Another form of the same verb in the lexicon: its stem with an ending only a verb has ("calentó" for
            # "calentaron"; "macho" makes no "mache", "cuchara" no "cuche").
            stems = {base[:-len(ending)] for ending in endings if base.endswith(ending) and len(base) - len(ending) >= 3}
            if endings is AR:  # an "-ar" verb's "c", "g" or "z" as written before an "e": "bostecé" of "bostezar"
                stems |= {stem[:-len(written)] + letter for stem in stems for letter, written in verbs.BEFORE_E.items()
                          if stem.endswith(written) and base[len(stem):len(stem) + 1] in ("e", "é")}
            if any(stem + ending in lexicon for stem in stems for ending in endings if ending in VERBAL):
                return True
    return False


def agreeing(translation):
    """`translation` with each ordinal in the masculine (`numbers.spanish_ordinal`, "2.º") made to agree: feminine
    after a feminine determiner, whole where no noun follows it ("primer", "tercer" cut short before one).

    >>> agreeing("Vamos a ensayar la cuarto escena en la 2.º planta."), agreeing("Terminó tercer.")
    ('Vamos a ensayar la cuarta escena en la 2.ª planta.', 'Terminó tercero.')
    """
    translation = _FEMININE_ORDINAL.sub(lambda m: m[1] + (m[2] + "a" if m[2] else m[3] + "ª"), translation)
    return _SHORT_ORDINAL.sub(r"\1o", translation)


# "de" and "a" before the article "el", which Spanish always contracts, and "el" before "un", which it never writes:
# the model, often beside a stand-in or a word written back ("45 de el dinero", "El 45 de la Tierra" -> "El un
# tercio"), may. Not before "él", a pronoun, nor "El", a name's ("de El Salvador"); "la una" is an hour.
_UNCONTRACTED = re.compile(r"(?<!\w)([Dd]e|[Aa]) el(?!\w)")
_ARTICLE_BEFORE_UN = re.compile(r"(?<!\w)(?:(E)|e)l (u)(?=n(?!\w))")
# "en" before a weekday's article: "Tom apologized on Monday." -> "Tom se disculpó en el lunes." (no reference says so).
_IN_BEFORE_WEEKDAY = re.compile(rf"(?<!\w)([Ee])n (el|los) (?=(?:{'|'.join(DIAS)})(?!\w))")


# "turn" and an age ("My son turns 5 tomorrow."), which Spanish says "cumplir 5 años" (`ages`). Only where nothing
# follows the number but a time or the sentence's end ("turn 2 pages").
_TURNS_AGE = re.compile(rf"(?i)\bturn(?:s|ed|ing)?\s+(?:\d{{1,3}}|{EN_WORD})(?:\s+years\s+old)?"
                        r"(?=\s*(?:[.,;!?]|$)|\s+(?:tomorrow|today|yesterday|next|last|this|on|in|soon|and|but|when|at)\b)")
# A source that speaks of what will be or is under way, or of a birthday, and of no habit: its "on Saturday" is one
# day. Of the corpus' pairs with one and "on Saturday" (no "s"), 34 say "el sábado", 1 "los sábados" (after "always").
_ONE_TIME = re.compile(r"(?i)\b(?:will|'ll|going to|next|this|tomorrow)\b|\b(?:are|is|am|'re|'s|'m) \w+ing\b")
_WEEKDAYS_APART = re.compile(rf"\b(?:{'|'.join(WEEKDAYS)})s?\s*(?:to|through|thru|till|until|[–-])\s*(?:{'|'.join(WEEKDAYS)})")
_HABIT = re.compile(r"(?i)\b(?:every|always|usually|often|never|each)\b")


# Words a weekday may follow without "el": articles, determiners, prepositions that take a bare day ("de lunes a
# viernes", "hasta el" is written with it).
_BEFORE_BARE_DAY = {"el", "los", "del", "al", "de", "a", "cada", "este", "ese", "aquel", "próximo", "otro", "un", "y", "o",
                    "e", "u", "hasta", "desde", "para", "por", "todos", "mismo", "primer", "último", "pasado", "entre",
                    "ni", "ningún", "algún", "tu", "su", "mi", "nuestro", "que", "viene"}


# Words before "de" that make one preposition with it: "en lugar de lunes" is no day's "de".
_BEFORE_DE = re.compile(r"(?<!\w)(?:lugar|antes|después|además|cerca|acerca|dentro|fuera|delante|detrás|encima|debajo|lejos|"
                        r"alrededor|partir|través) $", re.IGNORECASE)
# A weekday's part ("Friday afternoon"), as Spanish says it after the day: "el viernes por la tarde".
PARTS_OF_DAY = {"morning": "mañana", "afternoon": "tarde", "evening": "noche", "night": "noche"}
FULL_MONTH = "|".join(MONTHS)


# A weekday's hour said in words ("Sunday at midnight"), as the model says it.
_AT_HOUR = {"midnight": "a (?:la )?medianoche", "noon": "al? mediodía"}


def lost_weekdays(translation, source):
    """`translation` with each weekday of `source` that it does not say written back beside what it kept of the day:
    its part ("Please send the report by Friday afternoon." -> "… envíe el informe por la tarde." -> "… para el
    viernes por la tarde"), its date ("at 8 p.m. on Saturday, June 14" -> "a las 8 p.m. del 14 de junio" -> "del
    sábado 14 de junio") or its hour ("The sale ends Sunday at midnight." -> "La venta acaba a la medianoche." -> "…
    acaba el domingo a la medianoche").

    >>> lost_weekdays("Envíe el informe por la tarde.", "Send the report by Friday afternoon.")
    'Envíe el informe para el viernes por la tarde.'
    >>> lost_weekdays("Empieza a las 8 del 14 de junio. La mañana.", "It starts at 8 on Saturday, June 14. Monday morning.")
    'Empieza a las 8 del sábado 14 de junio. El lunes por la mañana.'
    >>> lost_weekdays("La venta acaba a la medianoche.", "The sale ends Sunday at midnight.")
    'La venta acaba el domingo a la medianoche.'
    >>> lost_weekdays("A las 9 abre. Al mediodía.", "Monday at 9 it opens. Friday at noon.")
    'El lunes a las 9 abre. El viernes al mediodía.'
    """
    if not WEEKDAY.search(source):  # most sources: no weekday to look for
        return translation
    for day, dia in zip(WEEKDAYS, DIAS):
        if not re.search(rf"\b{day}\b", source) or re.search(rf"(?i)(?<!\w){dia}", translation):
            continue
        if part := re.search(rf"\b(?:([Bb]y) )?{day} ({'|'.join(PARTS_OF_DAY)})\b", source):
            article = "para el" if part[1] else "el"
            translation = re.sub(rf"(?<!\w)(?:(?:[Pp]or|[Aa]|[Ee]n|[Dd]e) )?([Ll])a (?={PARTS_OF_DAY[part[2]]}(?!\w))",
                                 lambda m, article=article, dia=dia: (article.capitalize() if m[0][0].isupper()
                                                                      else article) + f" {dia} por la ",
                                 translation, count=1)
        elif date := re.search(rf"\b{day},?\s+(?:({FULL_MONTH})\s+(\d{{1,2}})|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({FULL_MONTH}))\b",
                               source):
            number, month = date[2] or date[3], MESES[MONTHS.index(date[1] or date[4])]
            translation = re.sub(rf"(?<!\w)(?:([Dd]el|[Ee]l|[Aa]l) )?(?={number} de {month}(?!\w))",
                                 lambda m, dia=dia: f"{m[1] or 'el'} {dia} ", translation, count=1)
        elif hour := re.search(rf"\b{day} at (midnight|noon|\d{{1,2}}(?::\d{{2}})?)", source):
            said = _AT_HOUR.get(hour[1], rf"a las? {hour[1]}")
            translation = re.sub(rf"(?<!\w)(?i:{said})(?!\w)", lambda m, dia=dia: (
                f"El {dia} {m[0][0].lower()}{m[0][1:]}" if starts_sentence(m.string, m.start()) else f"el {dia} {m[0]}"),
                translation, count=1)
    return translation


def weekdays(translation, source):
    """`translation` with each weekday as `source` says it, where the model said it otherwise: one day, of what will
    be or is under way ("They are coming over on Saturday." -> "… vendrán los sábados." -> "el sábado"), a habit
    ("on Fridays": "cierra temprano con viernes" -> "los viernes"), a deadline ("by Friday": "por viernes" -> "para el
    viernes", as the corpus says it), a day with its article after a preposition ("for Sunday": "para domingo" -> "para
    el domingo") and before "próximo" or "pasado" ("next Tuesday": "el próximo martes", the word written in where the
    model left it out), its part as Spanish says it after the day ("Tuesday afternoon": "el martes a la tarde" -> "el
    martes por la tarde"), or written back if lost.

    >>> weekdays("Vendrán los sábados.", "They are coming over on Saturday.")
    'Vendrán el sábado.'
    >>> weekdays("Vienen los sábados.", "They always come on Saturday."), weekdays("Los lunes.", "Mondays, I will.")
    ('Vienen los sábados.', 'Los lunes.')
    >>> weekdays("Cierra con viernes y trabaja a jueves.", "It closes on Fridays and works on Thursdays.")
    'Cierra los viernes y trabaja los jueves.'
    >>> weekdays("Mándalo por viernes, o por el lunes, de lunes, al lunes.", "Send it by Friday, or by Monday.")
    'Mándalo para el viernes, o para el lunes, para el lunes, para el lunes.'
    >>> weekdays("Abre de los sábados; sillas para domingo, hasta jueves.", "Open on Saturdays; chairs for Sunday, until Thursday.")
    'Abre los sábados; sillas para el domingo, hasta el jueves.'
    >>> weekdays("Abre sobre los domingos, del sábado de 8 a 12.", "Open on Sundays, Saturdays from 8 to 12.")
    'Abre los domingos, los sábados de 8 a 12.'
    >>> weekdays("Cumple 11 años próximo martes. Próximo lunes, del próximo lunes.", "He turns 11 next Tuesday. Next Monday.")
    'Cumple 11 años el próximo martes. El próximo lunes, del próximo lunes.'
    >>> weekdays("Cumple 70 años el sábado.", "He turns 70 next Saturday."), weekdays("Vino el lunes.", "He came last Monday.")
    ('Cumple 70 años el próximo sábado.', 'Vino el pasado lunes.')
    >>> weekdays("Sale al viernes a las 6.", "It leaves Friday at 6."), weekdays("Pasa al viernes.", "Move it to Friday.")
    ('Sale el viernes a las 6.', 'Pasa al viernes.')
    >>> weekdays("Hablamos con el martes a la tarde y a las 7 de jueves.", "We talk on Tuesday afternoon and at 7 on Thursday.")
    'Hablamos el martes por la tarde y a las 7 el jueves.'
    >>> weekdays("Veámonos a jueves noche.", "Let's meet Thursday night."), weekdays("Hablemos el lunes.", "Talk Monday evening.")
    ('Veámonos el jueves por la noche.', 'Hablemos el lunes por la noche.')
    >>> weekdays("¿Para el miércoles de noche?", "By Wednesday night?")
    '¿Para el miércoles por la noche?'
    >>> weekdays("Trabaja de lunes a viernes noche.", "He works Monday to Friday night.")
    'Trabaja de lunes a viernes por la noche.'
    """
    if not WEEKDAY.search(source):  # most sources: none of the searches below can match
        return translation
    one_time = (_ONE_TIME.search(source) or _TURNS_AGE.search(source)) and not _HABIT.search(source)
    for day, dia in zip(WEEKDAYS, DIAS):
        if re.search(rf"\bon {day}\b", source) and not re.search(rf"\b{day}s\b", source):
            # "en domingo", or "domingo" after a word that takes no bare day, is "el domingo" ("cumplió 60 años domingo").
            translation = re.sub(rf"(?<!\w)([Ee])n (?={dia}(?!\w))", r"\1l ", translation)
            translation = re.sub(rf"(?<!\w)(\w+) (?={dia}(?!\w))",
                                 lambda m: m[0] if m[1].lower() in _BEFORE_BARE_DAY else m[0] + "el ", translation)
            if one_time:
                translation = re.sub(rf"(?<!\w)([Ll])os {dia}s?(?!\w)",
                                     lambda m, dia=dia: f"{'E' if m[1] == 'L' else 'e'}l {dia}", translation)
            # "con el miércoles", "a las 7 de viernes": one day's "el" ("on Wednesday evening", "at 7 on Friday"); not
            # a range's "de", nor that of "en lugar de", "antes de".
            translation = re.sub(rf"(?<!\w)(?:([Cc])on(?: el)?|([Dd])e) (?={dia}(?!\w)(?! a (?:{'|'.join(DIAS)})))",
                                 lambda m: m[0] if _BEFORE_DE.search(m.string[:m.start()])
                                 else ("E" if (m[1] or m[2]).isupper() else "e") + "l ", translation)
        if part := re.search(rf"\b{day} ({'|'.join(PARTS_OF_DAY)})\b", source):
            # "el martes a la tarde", "a jueves noche": "el martes por la tarde", "el jueves por la noche".
            def by_part(match, dia=dia):
                if match[1] is None or re.search(rf"(?:{'|'.join(DIAS)}) $", match.string[:match.start()]):
                    article = f"{match[1]} " if match[1] else ""  # "de lunes a viernes noche": a range's "a"
                else:
                    article = "El " if match[1][0].isupper() else "el "
                return f"{article}{dia} por la "
            translation = re.sub(rf"(?<!\w)(?:([Aa]|[Ee]l) )?{dia} (?:(?:a|en|de) la |la |de )?(?={PARTS_OF_DAY[part[1]]}(?!\w))",
                                 by_part, translation)
            if not re.search(r"(?:mañana|tarde|noche)(?!\w)", translation):  # the part lost ("anoche" says it)
                translation = re.sub(rf"(?<!\w){dia}(?!\w)", f"{dia} por la {PARTS_OF_DAY[part[1]]}", translation, count=1)
        # A habit, "on" or not ("open Saturdays from 8" -> "del sábado"); not days from one to another ("Mondays to
        # Fridays" -> "los lunes a viernes").
        if re.search(rf"\b{day}s\b", source) and not _WEEKDAYS_APART.search(source):
            plural = dia if dia.endswith("s") else dia + "s"
            translation = re.sub(rf"(?<!\w)(?:(?:[Cc]on|[Aa]|[Ee]n|[Dd]e|[Ss]obre)(?: los)?|[Ee]l|[Dd]el|[Aa]l) {dia}s?(?!\w)",
                                 lambda m, plural=plural: ("L" if m[0][0].isupper() else "l") + "os " + plural, translation)
        if re.search(rf"(?<![Tt]o )(?<![Uu]ntil )(?<![Tt]ill )(?<![Tt]hrough )(?<![Bb]y )\b{day}\b(?!s)", source):
            # A day the source gives no "to" is no place to go to: "Our flight leaves Friday" -> "sale al viernes".
            translation = re.sub(rf"(?<!\w)([Aa])l (?={dia}(?!\w))", lambda m: ("E" if m[1] == "A" else "e") + "l ",
                                 translation)
        if re.search(rf"\b[Bb]y {day}\b", source):  # "por jueves", "de jueves", "al jueves"
            translation = re.sub(rf"(?<!\w)(?:([Pp])or(?: el)?|([Dd])(?:e(?: el)?|el)|([Aa])l) {dia}(?!\w)",
                                 lambda m, dia=dia: f"{'P' if (m[1] or m[2] or m[3]).isupper() else 'p'}ara el {dia}",
                                 translation)
        if re.search(rf"\b(?:[Ff]or|[Uu]ntil|[Tt]ill|[Bb]efore|[Aa]fter|[Ss]ince|[Bb]y) {day}\b", source):
            translation = re.sub(rf"(?<!\w)(?:([Pp]ara|[Hh]asta|[Dd]esde)|([Aa]ntes|[Dd]espués) de) (?={dia}(?!\w))",
                                 lambda m: f"{m[1]} el " if m[1] else f"{m[2]} del ", translation)
        if re.search(rf"\b(?:[Nn]ext|[Ll]ast) {day}\b", source):  # "cumple 11 años próximo martes" -> "el próximo"
            translation = re.sub(rf"(?<!\w)([Dd]e|[Aa]) (?=(?:próximo|pasado) {dia}(?!\w))", r"\1l ", translation)
            # Or said bare: "El tío Joe cumple 70 años el sábado." ("next Saturday"); not where "anoche" says it.
            said = "próximo" if re.search(rf"\b[Nn]ext {day}\b", source) else "pasado"
            if not re.search(rf"(?i)(?:próximo|pasado|que viene) {dia}|{dia} (?:próximo|pasado|que viene)|anoche",
                             translation):
                translation = re.sub(rf"(?<!\w)([Ee]l) (?={dia}(?!\w))", rf"\1 {said} ", translation, count=1)
            translation = re.sub(rf"(?<!\w)(?<!\b[EeAa]l )(?<!\b[Dd]el )(?<!\b[Ee]ste )(?<!\b[Ee]se )([Pp])(?=(?:róximo|asado) {dia}(?!\w))",
                                 lambda m: "El p" if starts_sentence(m.string, m.start()) else "el p", translation)
    return translation


# "about" before a number is a rough count ("It costs about $30."), which the model said "acerca de" ("concerning"):
# "alrededor de", as the corpus says it. Not after words of speech or thought ("We talked about 3 options").
_ABOUT = re.compile(rf"(?i)(?:^|(\w+)\s+)about\s+((?:{CURRENCY})?\d+(?:[.,]\d+)*)")
_CONCERNING = {"talk", "talked", "talking", "talks", "speak", "spoke", "think", "thought", "know", "knew", "hear", "heard",
               "read", "write", "wrote", "ask", "asked", "care", "worry", "worried", "forget", "forgot", "learn", "learned",
               "dream", "complain", "complained", "joke", "argue", "argued", "story", "book", "film", "movie", "article",
               "question", "song", "report", "news", "sure"}
_ACERCA_DE_NUMBER = re.compile(rf"(?<!\w)([Aa])cerca de (?=(?:{CURRENCY})?\d)")
# "up to" before a count, not a time ("up to 8 people", not "up to 8 p.m."), which the model said as an hour's "a las"
# ("El ascensor puede llevar a las 8 personas.") or dropped: "hasta", as the corpus says it.
_UP_TO = re.compile(rf"(?i)\bup\s+to\s+((?:{CURRENCY})?\d+(?:[.,]\d+)*)(?!\w|[.,:]\d|\s*(?:[ap]\.?m\b|o['’]clock))")


def roughly(translation, source):
    """`translation` with "about" before a number said as a rough count where the model said "concerning", or "for"
    before that number ("The battery lasts about 10 hours." -> "La batería dura por 10 horas."), and "up to" before a
    count as "hasta".

    >>> roughly("Cuesta acerca de $30.", "It costs about $30."), roughly("Hablamos acerca de 3 temas.", "We talked about 3 topics.")
    ('Cuesta alrededor de $30.', 'Hablamos acerca de 3 temas.')
    >>> roughly("Dura por 10 horas.", "It lasts about 10 hours."), roughly("Lleva a las 8 personas.", "It carries up to 8 people.")
    ('Dura alrededor de 10 horas.', 'Lleva hasta 8 personas.')
    >>> roughly("Lo pagué por $20 hace 10 días.", "I paid $20 for it about 10 days ago.")
    'Lo pagué por $20 hace 10 días.'
    >>> roughly("Abre hasta las 8 p.m.", "It is open up to 8 p.m.")  # a time keeps its article
    'Abre hasta las 8 p.m.'
    """
    for count in _UP_TO.finditer(source):
        translation = re.sub(rf"(?<!\w)(?:([Aa])(?: l(?:as?|os))?|([Hh])asta(?: l(?:as?|os))?) (?={re.escape(count[1])}(?!\w|[.,]\d))",
                             lambda m: ("H" if (m[1] or m[2]).isupper() else "h") + "asta ", translation)
    rough = [about[2] for about in _ABOUT.finditer(source) if (about[1] or "").lower() not in _CONCERNING]
    if rough:
        translation = _ACERCA_DE_NUMBER.sub(lambda m: m[1] + "lrededor de ", translation)
    for count in rough:
        translation = re.sub(rf"(?<!\w)([Pp])or (?={re.escape(count)}(?!\w|[.,]\d))",
                             lambda m: ("A" if m[1] == "P" else "a") + "lrededor de ", translation)
    return translation


# "turn" and an age: the model said "girar" ("Mi hijo gira 5 mañana.", "Acabo de girarme a las 21", "Mi padre se gira
# a 65"), "ponerse" ("Ella se puso 30") or "encender" ("La abuela encendió 90").
_CUMPLIR = {"gira": "cumple", "giran": "cumplen", "giró": "cumplió", "giraron": "cumplieron", "girará": "cumplirá",
            "girarán": "cumplirán", "girar": "cumplir", "girarme": "cumplir", "girarse": "cumplir",
            "girando": "cumpliendo", "gire": "cumpla", "giraba": "cumplía", "giraría": "cumpliría", "se pone": "cumple",
            "se puso": "cumplió", "se pondrá": "cumplirá", "enciende": "cumple", "encendió": "cumplió",
            "encenderá": "cumplirá", "se gira": "cumple", "se giró": "cumplió", "se girará": "cumplirá"}
_GIRA_AGE = re.compile(rf"(?<!\w)({'|'.join(_CUMPLIR)})\s+(?:a\s+(?:l[ao]s\s+)?)?({DIGITS}|{SPANISH_WORD.pattern})(?!\w)"
                       r"(\s+años)?", re.IGNORECASE)


def ages(translation, source):
    """`translation` with "turn" and an age said as Spanish says it, where the model said "girar".

    >>> ages("Mi hijo gira 5 mañana y ella giró a treinta años.", "My son turns 5 tomorrow and she turned thirty years old.")
    'Mi hijo cumple 5 años mañana y ella cumplió treinta años.'
    >>> ages("Gira 2 páginas.", "Turn 2 pages."), ages("Se puso 30.", "She turned 30.")
    ('Gira 2 páginas.', 'Cumplió 30 años.')
    >>> ages("Acabo de girarme a las 21 ayer.", "I just turned 21 yesterday."), ages("Se gira a 65.", "He turns 65.")
    ('Acabo de cumplir 21 años ayer.', 'Cumple 65 años.')
    """
    if not _TURNS_AGE.search(source):
        return translation

    def cumplir(match):
        verb = _CUMPLIR[match[1].lower()]
        return f"{verb[0].upper() + verb[1:] if match[1][0].isupper() else verb} {match[2]} años"
    return _GIRA_AGE.sub(cumplir, translation)


# A count other than one before "millón" ("El museo llega a los dos millón de visitas"): Spanish says "millones".
_ONE_MILLION_TOO_MANY = re.compile(rf"(?<![\w.,])((?!1(?![\d.,]))\d+(?:[.,]\d+)*|{SPANISH_WORD.pattern})\s+millón(?!\w)")


def plural_scales(translation, source):
    """`translation` with "millón" in the plural after a count other than one.

    >>> plural_scales("Llegan dos millón, un millón, 1.5 millón y 1 millón.", "")
    'Llegan dos millones, un millón, 1.5 millones y 1 millón.'
    """
    return _ONE_MILLION_TOO_MANY.sub(r"\1 millones", translation)


# A family's possessive ("The Hendersons' dog"), not a span: Spanish says the family with its article, which the model
# dropped ("El perro de Hendersons").
_FAMILY_OF = re.compile(r"\b[Tt]he ([A-Z][a-z]+s)['’](?!\w)")


def families(translation, source):
    """`translation` with each family `source` says in the possessive after "de" with its article.

    >>> families("El perro de Hendersons ladra, como el del Smiths.", "The Hendersons' dog barks, like the Smiths' one.")
    'El perro de los Hendersons ladra, como el de los Smiths.'
    """
    for family in _FAMILY_OF.finditer(source):
        translation = re.sub(rf"(?<!\w)de(?:l| los)? {family[1]}(?!\w)", f"de los {family[1]}", translation)
    return translation


# A measure or a share of something ("200 grams of flour", "a 15% discount"), whose "de" the model left out ("200
# gramos harina", "un 15% descuento").
_MEASURE_OF = re.compile(rf"(?<![\w.,])(\d+(?:[.,]\d+)?)\s?({'|'.join(UNIT_WORDS)}|{UNITS})\s+of\s+[a-z]")
# A measure of a size ("30 cm long", "8,849 meters high"), which Spanish says with "de" ("30 cm de largo"); the model
# wrote none ("30 cm largo"), or lost the size ("30 cm de largo y 20 cm."). Each size: its Spanish after a measure,
# and every word that says it; `_SIZES`: the words that take "de" after a measure. A length the model took for a time
# ("42.195 km mucho tiempo") is a size lost.
_SIZE_WORDS = {"long": ("largo", "larg[oa]s?|longitud"), "wide": ("ancho", "anch[oa]s?|anchura"),
               "high": ("alto", "alt[oa]s?|altura"), "tall": ("alto", "alt[oa]s?|altura"),
               "deep": ("profundidad", "profund[oa]s?|profundidad"), "thick": ("grosor", "grues[oa]s?|grosor|espesor")}
_SIZE = re.compile(rf"(?<![\w.,])(\d+(?:[.,]\d+)*)\s?({'|'.join(UNIT_WORDS)}|{UNITS})\s+({'|'.join(_SIZE_WORDS)})\b")
_SIZES = "largo|larga|ancho|ancha|alto|alta|altura|profundo|profunda|profundidad|grosor|espesor"
_SHARE_BEFORE_NOUN = re.compile(r"(?i)\ban?\s+(\d+(?:[.,]\d+)?)\s?%\s+(?!off\b)[a-z]")
# Words after a share that need no "de": "un 15% más", "un 15% en …".
_NOT_COUNTED = "de|del|más|menos|en|por|para|y|o|a|al|con|sobre|sin|que|es|era|fue"


def of_what(translation, source):
    """`translation` with "de" between a measure or a share and what it measures, where `source` says "of" or
    counts a share before its noun, and between a measure and the size it gives ("de largo"), where the model left it
    out; a size the model lost is written after its measure.

    >>> of_what("Necesito 200 gramos harina y 2,5 litros leche.", "I need 200 grams of flour and 2.5 liters of milk.")
    'Necesito 200 gramos de harina y 2,5 litros de leche.'
    >>> of_what("Tenemos un 15% descuento, un 10% más.", "We have a 15% discount, a 10% more.")
    'Tenemos un 15% de descuento, un 10% más.'
    >>> of_what("Mide 30 cm largo y 8,849 metros alto, 3 kg leche.", "It is 30 cm long and 8,849 meters high, 3 kg of milk.")
    'Mide 30 cm de largo y 8,849 metros de alto, 3 kg de leche.'
    >>> of_what("Es 300 pies profundo.", "It is 300 feet deep.")
    'Es 300 pies de profundidad.'
    >>> of_what("La caja es 30 cm de largo y 20 cm.", "The box is 30 cm long and 20 cm wide.")
    'La caja es 30 cm de largo y 20 cm de ancho.'
    """
    said = [(number, UNIT_WORDS.get(unit, unit), "") for number, unit in _MEASURE_OF.findall(source)]
    said += [(number, "%", "") for number in _SHARE_BEFORE_NOUN.findall(source)]
    for number, unit, size in _SIZE.findall(source):
        unit = UNIT_WORDS.get(unit, unit)
        spanish, words = _SIZE_WORDS[size]
        if not re.search(rf"(?i)(?<!\w)(?:{words})(?!\w)", translation):
            translation = re.sub(rf"((?<![\w.,])(?:{either_separators(number)})\s?{re.escape(unit)})(?![\w%])"
                                 r"(?: mucho tiempo(?!\w))?", rf"\1 de {spanish}", translation, count=1)
        said.append((number, unit, f"(?=(?:{_SIZES})(?!\\w))"))
    for number, unit, what in said:
        forms = either_separators(number)
        translation = re.sub(rf"(?<![\w.,])(?:{forms})\s?{re.escape(unit)} (?!(?:{_NOT_COUNTED})(?!\w)){what}(?=[a-záéíóúñ])",
                             r"\g<0>de ", translation)
        if what:  # a depth is a noun's ("de profundidad"), the other sizes an adjective's ("de largo")
            translation = re.sub(rf"((?<![\w.,])(?:{forms})\s?{re.escape(unit)} de )profund[oa]s?(?!\w)", r"\1profundidad",
                                 translation)
    return translation


# A count by the period ("10,000 steps a day", "4 days a week"), which the model said word for word ("10.000 pasos un
# día", "5.000 visitantes una semana") or lost ("Ella trabaja 4 días por casa"): as the corpus says it, "al día".
_COUNT_PER = re.compile(rf"(?i)(?<![\w.,])(\d+(?:[.,]\d+)*|{EN_WORD})(?:\s+million)?\s+"
                        r"(?!(?:for|in|within|after|over|about|of|by|on|at|to|from|during|with|and|or)\b)[a-z]+\s+(?:a|an|per)\s+"
                        r"(day|week|month|year|hour|night)\b(?!\s+(?:ago|later|earlier|before|after)\b)")
# "every" before a count of a period ("every 45 minutes"), which the model said "todos los" or, beside a stand-in,
# "todas los": "cada 45 minutos", as the corpus says it.
_EVERY_COUNT = re.compile(rf"(?i)\bevery\s+(\d+|{EN_WORD})\s+(?:second|minute|hour|day|week|month|year)s\b")
_PER = {"day": ("un día", "al día"), "week": ("una semana", "a la semana"), "month": ("un mes", "al mes"),
        "year": ("un año", "al año"), "hour": ("una hora", "por hora"), "night": ("una noche", "por noche")}


def per_period(translation, source):
    """`translation` with each count by the period of `source` said as Spanish says it, where the model said the
    period word for word or lost it.

    >>> per_period("Caminé 10.000 pasos un día y 3 km en una hora.", "I walked 10,000 steps a day and 3 km in an hour.")
    'Caminé 10.000 pasos al día y 3 km en una hora.'
    >>> per_period("Caminé 10 km un día, 2 km un día.", "I walked 10 km one day, 2 km a day.")
    'Caminé 10 km un día, 2 km un día.'
    >>> per_period("Te di 10 yenes hace una semana, en la ruta 66 para una semana.", "I gave you 10 yen a week ago on Route 66 for a week.")
    'Te di 10 yenes hace una semana, en la ruta 66 para una semana.'
    >>> per_period("Ella trabaja 4 días desde casa.", "She works 4 days a week from home.")
    'Ella trabaja 4 días a la semana desde casa.'
    >>> per_period("Abre siete días a una semana.", "Open seven days a week."), per_period("Dos comidas un día.", "Two meals a day.")
    ('Abre siete días a la semana.', 'Dos comidas al día.')
    >>> per_period("Sale todas los 45 minutos; Todos los 2 días.", "It leaves every 45 minutes; every two days.")
    'Sale cada 45 minutos; Cada 2 días.'
    """
    if _EVERY_COUNT.search(source):
        translation = re.sub(r"(?<!\w)([Tt])od[oa]s l[oa]s (?=(?:\d+|[a-z]+) (?:segundos|minutos|horas|días|semanas|meses|años)\b)",
                             lambda m: ("C" if m[1] == "T" else "c") + "ada ", translation)
    for match in _COUNT_PER.finditer(source):
        one, said = _PER[match[2].lower()]
        noun = one.split()[1]
        if match[1][0].isdigit():
            number = either_separators(match[1])
        elif (value := word_value(match[1])) is not None and value < 100:  # "seven days a week": "siete días"
            number = "(?i:un[ao]?)" if value == 1 else f"(?i:{spanish_number(value)})"
        else:
            continue
        if re.search(rf"(?<!\w){noun}(?:e?s)?(?!\w)", translation) is None:
            # Lost: said after the count and the word after it ("4 días").
            translation = re.sub(rf"(?<![\w.,])(?:{number})(?:\s+millones(?:\s+de)?)?\s+\w+", rf"\g<0> {said}", translation,
                                 count=1)
        elif len(re.findall(rf"(?i)\b{match[2]}s?\b", source)) == 1:  # said once: "un día" after the count is this
            translation = re.sub(rf"((?<![\w.,])(?:{number})(?:\s+\S+){{1,3}}?\s)(?:(?:en|de|por|a) )?{one}(?!\w)",
                                 rf"\g<1>{said}", translation, count=1)
    return translation


# How far one place is from another, "está a 10 minutos de": the model wrote no "a" ("El hotel está 10 minutos de JFK
# Airport."), said "tener" for "be" ("Tenemos 15 minutos del aeropuerto.") or copied "blocks" ("tiene 2 blocks del
# metro"). Only where the source says so: "I have 10 minutes of" is "Tengo 10 minutos de".
_FAR_FROM = re.compile(r"(?i)\b(?:is|are|am|was|were|'re|'s|'m)\s+(?:about\s+|only\s+|just\s+)?\S+\s+(?:minutes?|hours?|"
                       r"miles?|kilometers?|kilometres?|km|meters?|metres?|blocks?|steps?)\s+(?:away\s+)?from\b")
_ESTAR = {"tiene": "está", "tienen": "están", "tenemos": "estamos", "tengo": "estoy", "tienes": "estás"}
_DISTANCE = re.compile(rf"(?<!\w)([Ee]st(?:á|án|aba|aban|amos|oy|ará|arán)|[Qq]ued(?:a|an|aba|aban|amos|o|ará|arán)|"
                       rf"(?i:{'|'.join(_ESTAR)}))\s+((?:unos\s+|unas\s+)?(?:{DIGITS}|{SPANISH_WORD.pattern})\s+)"
                       r"(minutos|horas|km|kilómetros|millas|metros|cuadras|blocks|manzanas|pasos)(?=\s+del?\b)")


def distances(translation, source):
    """`translation` with how far a place is from another said as Spanish says it, where the source says so.

    >>> distances("El hotel está 10 minutos de JFK y queda dos km del mar.", "The hotel is 10 minutes from JFK and 2 km from the sea.")
    'El hotel está a 10 minutos de JFK y queda a dos km del mar.'
    >>> distances("Tenemos 15 minutos del aeropuerto; tiene 2 blocks del metro.", "We're 15 minutes from the airport; it's 2 blocks from it.")
    'Estamos a 15 minutos del aeropuerto; está a 2 cuadras del metro.'
    >>> distances("Tengo 10 minutos de descanso.", "I have 10 minutes of rest from work.")
    'Tengo 10 minutos de descanso.'
    """
    if not _FAR_FROM.search(source):
        return translation

    def far(match):
        verb = _ESTAR.get(match[1].lower(), match[1])
        verb = verb[0].upper() + verb[1:] if match[1][0].isupper() else verb
        return f"{verb} a {match[2]}{'cuadras' if match[3] == 'blocks' else match[3]}"
    return _DISTANCE.sub(far, translation)


# An hour by the clock after a preposition, which Spanish says with its article ("antes de las 7 a.m.", "a la 1 p.m."):
# the model, given a stand-in, wrote none ("Llámame después de 6 p.m.") or the plural's for one ("a las 1 p.m.").
_HOUR = rf"(?:\d{{1,2}}(?::\d{{2}})?\s?{MERIDIEM}|\d{{1,2}}:\d{{2}}(?![\d:]))"
_HOUR_WITHOUT_ARTICLE = re.compile(rf"(?<!\w)((?:[Aa]ntes|[Dd]espués|[Dd]esde|[Hh]asta|[Pp]ara|[Dd]e|[Aa]|[Ee]ntre)(?: de)?) "
                                   rf"(?={_HOUR})")
# And the second of two, "entre las 9 a.m. y las 11 a.m." (the model wrote "entre 9 a.m. y 11 a.m.").
_BETWEEN_HOURS = re.compile(rf"(?<!\w)([Ee]ntre las? {_HOUR}) y (?={_HOUR})")
_HOURS_FOR_ONE = re.compile(rf"(?<!\w)([Ll])as (?=1(?!\d)(?::\d{{2}})?(?:\s?{MERIDIEM}|(?<=\d)(?![\d:])))")
# Hours from one to another are "de las ... a las ...": the model, given a range's stand-in after a comma or colon,
# wrote no "de" ("abierto de martes a domingo, 10 a.m. a las 6 p.m."), or read its first hour as a time to be at ("se
# sirve a las 11:30 a.m. a las 2 p.m."). Not after another article ("hasta las 9 p.m. a las 10 p.m.").
_HOURS_FROM_TO = re.compile(rf"(?:(?<!\w)([Aa]|[Ee]n|[Pp]or) las? |(?<!las )(?<!la )(?<![\w.,:]))(?={_HOUR} a las? {_HOUR})")


def hour_articles(translation):
    """`translation` with each hour by the clock after a preposition given its article, "la" for one o'clock.

    >>> hour_articles("Llámame después de 6 p.m., desde 9 am hasta 1 pm; abre a las 1 p.m. y a 10:30 a.m.")
    'Llámame después de las 6 p.m., desde las 9 am hasta la 1 pm; abre a la 1 p.m. y a las 10:30 a.m.'
    >>> hour_articles("Se movió de 2:00 a 3:30 PM, de 1:15 a las 1:30; ganó 2:1.")
    'Se movió de las 2:00 a las 3:30 PM, de la 1:15 a la 1:30; ganó 2:1.'
    >>> hour_articles("Abre a diario, 7 a.m. a las 10 p.m.; sirve a las 11:30 a.m. a 2 p.m. 9 am a 5 pm: horas.")
    'Abre a diario, de las 7 a.m. a las 10 p.m.; sirve de las 11:30 a.m. a las 2 p.m. De las 9 am a las 5 pm: horas.'
    >>> hour_articles("Llámame entre 9 a.m. y 1 p.m., entre 2 y 3.")
    'Llámame entre las 9 a.m. y la 1 p.m., entre 2 y 3.'
    """
    translation = _HOUR_WITHOUT_ARTICLE.sub(lambda m: f"{m[1]} las ", translation)
    translation = _BETWEEN_HOURS.sub(r"\1 y las ", translation)
    translation = _HOURS_FROM_TO.sub(lambda m: ("D" if (m[1] or "")[:1].isupper() or not m[1] and starts_sentence(
        m.string, m.start()) else "d") + "e las ", translation)
    return _HOURS_FOR_ONE.sub(r"\1a ", translation)


def tidied(translation, source, lexicon):
    """`translation` of `source` as Spanish writes it: a full stop the model put after initials inside a sentence goes
    (`unbroken`), a word written twice in a row is written once (`unrepeated`), an ordinal written back in the
    masculine ("cuarto", "2.º") agrees with the determiner before it (`agreeing`), the articles are as Spanish writes
    them ("del", no English "The" opening it), weekdays, rough counts and ages are said as the source says them
    (`weekdays`, `roughly`, `ages`), "millón" agrees with its count (`plural_scales`), a family in the possessive
    takes its article (`families`) and how far a place is, its "a" (`distances`).

    >>> tidied("The perro gira 5 el lunes.", "The dog turns 5 on Monday.", {"perro"})
    'El perro cumple 5 años el lunes.'
    >>> tidied("El hotel está 10 minutos de aquí.", "The hotel is 10 minutes from here.", set())
    'El hotel está a 10 minutos de aquí.'
    """
    translation = articles(agreeing(unrepeated(unbroken(translation, source, lexicon), source)))
    for tidy in (english_article, lost_weekdays, weekdays, roughly, ages, plural_scales, families, of_what, per_period,
                 distances):
        translation = tidy(translation, source)
    return hour_articles(translation)


def articles(translation):
    """`translation` with its articles as Spanish writes them: "de el" and "a el" contracted ("del", "al"), no "el"
    before "un", no "en" before a weekday's article.

    >>> articles("A el final, el un tercio de el dinero es de él, de El Salvador. El un tercio.")
    'Al final, un tercio del dinero es de él, de El Salvador. Un tercio.'
    >>> articles("Se disculpó en el lunes. En los martes cierra.")
    'Se disculpó el lunes. Los martes cierra.'
    """
    translation = _UNCONTRACTED.sub(r"\1l", translation)
    translation = _IN_BEFORE_WEEKDAY.sub(lambda m: (m[2].capitalize() if m[1] == "E" else m[2]) + " ", translation)
    return _ARTICLE_BEFORE_UN.sub(lambda m: "U" if m[1] else "u", translation)


# "The" opening a text before a name, or a word passed through as one, which the model copied with the stand-in as a
# piece of it ("The Beatles came from Liverpool." -> "The Beatles vino de Liverpool.", "The bellboy will show you …"
# -> "The bellboy te va a mostrar …").
_OPENING_THE = re.compile(r"^([\s\"'¿¡(]*)The (?=(?:[A-ZÀ-ÖØ-Þ]\S*\s+)*[A-ZÀ-ÖØ-Þ]\S*?(s?)(?!\S)|[a-zà-ÿ]\S*?(s?)(?!\S))")


def english_article(translation, source):
    """`translation` with a "The" that opens it, as `source` does, said in Spanish: "Los" before a plural (a name's
    last word), else "El", Spanish's article for a name whose gender it does not know ("el Louvre").

    >>> english_article("The Beatles vino de Liverpool.", "The Beatles came from Liverpool.")
    'Los Beatles vino de Liverpool.'
    >>> english_article("The Titanic se hundió en 1912.", "The Titanic sank in 1912.")
    'El Titanic se hundió en 1912.'
    >>> english_article("The Seattle Seahawks juegan.", "The Seattle Seahawks play.")
    'Los Seattle Seahawks juegan.'
    >>> english_article("The Guardian lo dijo.", "She read it in The Guardian.")  # a name's own "The", as written
    'The Guardian lo dijo.'
    >>> english_article("The bellboys te van a mostrar.", "The bellboys will show you.")  # a word passed through
    'Los bellboys te van a mostrar.'
    >>> english_article("The iPad cuesta $499.", "The iPad mini costs $499.")
    'El iPad cuesta $499.'
    """
    if not _OPENING_THE.match(source):
        return translation
    return _OPENING_THE.sub(lambda m: m[1] + ("Los " if m[2] or m[3] else "El "), translation)


# A word written twice or more in a row, the model's stutter ("mi seguro seguro", "si si si si"), more often greedy.
_REPEATED_WORD = re.compile(r"(?<![\w-])([^\W\d_]+)(?:\s+\1)+(?![\w-])", re.IGNORECASE)
_WORD_OF_ITSELF = re.compile(r"(?<![\w-])([^\W\d_]{3,}) de \1(?![\w-])")


def unrepeated(translation, source):
    """`translation` with each word written twice or more in a row written once, unless `source` repeats it so
    ("Bora Bora"), and its `stutters` written once.

    >>> unrepeated("¿Puedo usar mi seguro seguro en Bora Bora? Te te veo.", "Can I use my insurance in Bora Bora?")
    '¿Puedo usar mi seguro en Bora Bora? Te veo.'
    >>> unrepeated("¿Cuál es el cambio de cambio?", "What is the exchange rate?")
    '¿Cuál es el cambio?'
    """
    def once(match):
        return match.group() if re.search(rf"(?<![\w-]){re.escape(match.group())}(?![\w-])", source) else match[1]
    translation = _REPEATED_WORD.sub(once, translation)
    for stutter in reversed(stutters(translation, source)):
        translation = translation[:stutter.start()] + stutter[1] + translation[stutter.end():]
    return translation


def stutters(translation, source):
    """The words of `translation` written "de" themselves ("el cambio de cambio", "un nuevo cuarto de cuarto" for "a new
    quarterback"; one reference in 30,000 says so), unless `source` says a word "of" itself: the model's stutter, most
    often over a word it does not know.

    >>> [m.group() for m in stutters("Necesita un nuevo cuarto de cuarto.", "They need a new quarterback.")]
    ['cuarto de cuarto']
    """
    return [] if re.search(r"(?i)\b(\w+) of \1\b", source) else list(_WORD_OF_ITSELF.finditer(translation))


# A full stop after a lower-case letter and the next word, with a capital letter alone between them perhaps: where the
# model ended a sentence after what it made of initials ("Unidos. S están").
_BREAK = re.compile(r"(?<=[a-zà-öø-ÿ])\.(?:\s+([A-Z])\.?(?!\w))?\s+(\w+)")


def unbroken(translation, source, lexicon):
    """`translation` without the full stops the model put after initials that `source` goes on after: the corpus
    shows "U.S." mostly at a sentence's end ("from the U.S." -> "de EE.UU."), so the model ends a sentence where
    the source does not ("She flew to the U.S. last week." -> "Ella voló a los Estados Unidos. La semana pasada."),
    sometimes with a letter of them left over ("Unidos. S están", "Unidos. A. Es"). Only where the source has no
    other full stop inside it, no more such stops than initials inside it, and a capital left over only if it is
    one of theirs; the word after takes a small letter when the `lexicon` has it so ("La" -> "la", not "Joe").

    >>> unbroken("Ella voló a los Estados Unidos. La semana pasada.", "She flew to the U.S. last week.", {"la"})
    'Ella voló a los Estados Unidos la semana pasada.'
    >>> unbroken("Los precios en los Estados Unidos. S están subiendo.", "Prices in the U.S. are rising.", set())
    'Los precios en los Estados Unidos están subiendo.'
    >>> unbroken("El Sr. Smith llegó. Luego se fue.", "Mr. Smith came, then he left.", {"luego"})  # no initials
    'El Sr. Smith llegó. Luego se fue.'
    """
    inside = [match for match in re.finditer(INITIALS, source) if re.match(r"\s+\w", source[match.end():])]
    breaks = list(_BREAK.finditer(translation))
    letters = {letter for match in inside for letter in match.group().split(".")}
    if (not inside or not breaks or len(breaks) > len(inside) or re.search(r"[.!?]\s+\w", re.sub(INITIALS, "", source))
            or any(match[1] and match[1] not in letters for match in breaks)):
        return translation
    return _BREAK.sub(lambda match: " " + (match[2].lower() if match[2].lower() in lexicon else match[2]), translation)


# A sentence of a translation: what ends at a stop before a space or the end (and any closing quote after it; not
# "3.5", "9 a.m" inside), or the rest.
_SENTENCE = re.compile(r"(?:[^.!?…]|[.!?…]+(?![\s\"'»”)]|$))*(?:[.!?…]+[\"'»”)]*|$)")
_OPENING = {"?": "¿", "!": "¡"}
_QUOTES = {'"': '"', "'": "'", "»": "«", "”": "“", ")": "("}


def opening_marks(translation):
    """`translation` with the "¿" or "¡" that Spanish opens a question or exclamation with, where a sentence ending
    in "?" or "!" has none: the model writes them, a text written back as it is ("Hey Sam!", a greeting and a name:
    no words for the model) lacks them. (Not for the model's own few without: "Entonces, estás seguro …?" opens its
    question after the comma.)

    >>> opening_marks("Hola Sam! ¿Cómo estás? Te ayudaremos bien? Sí.")
    '¡Hola Sam! ¿Cómo estás? ¿Te ayudaremos bien? Sí.'
    >>> opening_marks('"Hola, Sam!" Bien. Dijo: "Vete!"')
    '"¡Hola, Sam!" Bien. Dijo: "¡Vete!"'
    >>> opening_marks("Cuesta 3.5? Son las 9 a.m. Vienes?")
    '¿Cuesta 3.5? Son las 9 a.m. ¿Vienes?'
    """
    def opened(match):
        sentence = match.group()
        core = sentence.rstrip("\"'»”)")
        mark = _OPENING.get(core[-1:])
        if not mark or mark in sentence:
            return sentence
        # Inside the quotation it closes, if one does ('Dijo: "¡Vete!"'); else where the sentence's words begin.
        quoted = core.rfind(_QUOTES[sentence[len(core)]]) + 1 if len(core) < len(sentence) else 0
        start = quoted or len(sentence) - len(sentence.lstrip(" \"'«“("))
        return sentence[:start] + mark + sentence[start:]
    return _SENTENCE.sub(opened, translation)


def greeted(translation, source, spans):
    """`translation` with the comma after each greeting (a "greeting" span of `source`'s `spans`) that has one in
    `source`, and the question or exclamation after it opened with its mark: the model, given a stand-in for the
    greeting, may drop both ("Good morning everyone, let's begin." -> "Buenos días a todos vamos a empezar.", "Hi, is
    the pool open today?" -> "Hola, la piscina está abierta hoy?").

    >>> from translator.text.verbatim import Span
    >>> source = "Hi everyone, is it open?"
    >>> greeted("Hola a todos está abierto?", source, [Span(0, 11, "greeting", "Hola a todos")])
    'Hola a todos, ¿está abierto?'
    """
    for span in spans:
        if span.kind != "greeting" or not source[span.end:].startswith(","):
            continue
        match = re.search(rf"(?<!\w){re.escape(span.value)},?(?=\s)", translation)
        if match:
            translation = translation[:match.start()] + span.value + "," + opening_marks(translation[match.end():])
    return translation
