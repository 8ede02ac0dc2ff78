"""What the plain-Python code counts as a word, the punctuation that ends or opens a sentence, and the word tables
the modules of `translator.text` share.

`WORD` splits text for the invented-word checks (`translator.text.rerank`, which
`translator.evaluation.quality` counts with) and the stand-ins
(`translator.text.verbatim`); the sentence marks serve the code that cuts text
into sentences (`translator.text.segments`) and the code that capitalises
sentence starts (`translator.text.pipeline`). Each mark string goes inside a
regular expression's `[...]`. The tables (titles, labels, units, countries,
greetings, months, weekdays, currencies, days, names...) are read here by every
module that needs one, `verbatim` too: no module imports another for a list.

>>> WORD.findall("¿Dónde está Tom_2?")
['Dónde', 'está', 'Tom', '2']
"""

import re

# Letters (with accents) and digits make words; punctuation, spaces and "_" separate them.
WORD = re.compile(r"[^\W_]+")
SENTENCE_END = ".!?…"
SENTENCE_OPEN = "¿¡\"«("
# Titles before a name: their full stop ends no sentence, and "Dr. Okonkwo" is one name to keep.
TITLES = ("Dr", "Mr", "Mrs", "Ms", "Prof", "Sr", "Sra", "St")
# Offices before a name, kept with it as written as "Dr." is: opening a sentence the model spelled them anew ("Judge
# Rodriguez" -> "Jresupuesto Rodriguez", "Officer Chen" -> "Deficer Chen", "Mayor Bloomberg" -> "Puede que
# Bloomberg") and copied them elsewhere. Not said in Spanish as `RANKS` are: the office does not give the gender
# ("la jueza", "el juez"). "President" is not one: the model says "el presidente Lincoln" itself. "Doctor Smith" came
# out "Haz médico a Smith", "Nurse Patel will see you" lost the nurse.
OFFICES = ("Judge", "Justice", "Officer", "Detective", "Inspector", "Sergeant", "Lieutenant", "Captain", "Colonel",
           "Agent", "Sheriff", "Senator", "Governor", "Mayor", "Professor", "Coach", "Ambassador", "Chancellor",
           "Commissioner", "Congressman", "Congresswoman", "Doctor", "Nurse", "Pastor")
# The titles Spanish says its way, with the article ("Mr. Tanaka is my neighbor" -> "El Sr. Tanaka es mi vecino"; the
# model copied "Mr."), and a couple's ("Mr. and Mrs. Tanaka" came out "Mr. y Mrs. Tanaka").
SPANISH_TITLES = {"Mr": "el Sr.", "Mrs": "la Sra.", "Ms": "la Sra."}
COUPLE_TITLE = "los Sres."
# Months as written short: before a number ("Dec. 12th") their full stop ends no sentence either.
MONTHS_SHORT = ("Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec")

# A month's days as ordinal words ("the fourteenth of February"), the first day's first.
_FIRST_NINE = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
ORDINAL_DAYS = (*_FIRST_NINE, "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                "seventeenth", "eighteenth", "nineteenth", "twentieth", *(f"twenty-{day}" for day in _FIRST_NINE),
                "thirtieth", "thirty-first")
# The first ten ordinals in Spanish, without their ending ("tercer", "tercero", "tercera").
SPANISH_ORDINALS = ("primer", "segund", "tercer", "cuart", "quint", "sext", "séptim", "octav", "noven", "décim")
# Decades in words ("the sixties"), the twenties' first.
DECADES = ("twenties", "thirties", "forties", "fifties", "sixties", "seventies", "eighties", "nineties")

# Units written in words after a number ("4.5 kilograms"): English singular and plural, Spanish singular and plural.
_UNITS = (("kilogram", "kilograms", "kilogramo", "kilogramos"), ("gram", "grams", "gramo", "gramos"),
          ("milligram", "milligrams", "miligramo", "miligramos"), ("kilometer", "kilometers", "kilómetro", "kilómetros"),
          ("kilometre", "kilometres", "kilómetro", "kilómetros"), ("meter", "meters", "metro", "metros"),
          ("metre", "metres", "metro", "metros"), ("centimeter", "centimeters", "centímetro", "centímetros"),
          ("centimetre", "centimetres", "centímetro", "centímetros"), ("millimeter", "millimeters", "milímetro", "milímetros"),
          ("millimetre", "millimetres", "milímetro", "milímetros"), ("liter", "liters", "litro", "litros"),
          ("litre", "litres", "litro", "litros"), ("milliliter", "milliliters", "mililitro", "mililitros"),
          ("millilitre", "millilitres", "mililitro", "mililitros"), ("mile", "miles", "milla", "millas"),
          ("foot", "feet", "pie", "pies"), ("inch", "inches", "pulgada", "pulgadas"), ("yard", "yards", "yarda", "yardas"),
          ("pound", "pounds", "libra", "libras"), ("ounce", "ounces", "onza", "onzas"),
          ("gallon", "gallons", "galón", "galones"), ("ton", "tons", "tonelada", "toneladas"),
          ("tonne", "tonnes", "tonelada", "toneladas"), ("hectare", "hectares", "hectárea", "hectáreas"),
          ("acre", "acres", "acre", "acres"), ("degree", "degrees", "grado", "grados"),
          ("calorie", "calories", "caloría", "calorías"), ("kilobyte", "kilobytes", "kilobyte", "kilobytes"),
          ("megabyte", "megabytes", "megabyte", "megabytes"), ("gigabyte", "gigabytes", "gigabyte", "gigabytes"),
          ("terabyte", "terabytes", "terabyte", "terabytes"), ("volt", "volts", "voltio", "voltios"),
          ("watt", "watts", "vatio", "vatios"), ("cent", "cents", "centavo", "centavos"),
          ("tablespoon", "tablespoons", "cucharada", "cucharadas"), ("teaspoon", "teaspoons", "cucharadita", "cucharaditas"))
UNIT_WORDS = {english: spanish for *englishes, one, many in _UNITS for english, spanish in zip(englishes, (one, many))}
UNIT_PLURALS = {one: many for one, many, *_ in _UNITS}

# Nouns that number a place or a part ("Room 214"), with their Spanish and its article.
LABELS = {"Room": "la habitación", "Chapter": "el capítulo", "Page": "la página", "Gate": "la puerta", "Platform": "el andén",
          "Exit": "la salida", "Section": "la sección", "Lesson": "la lección", "Table": "la mesa", "Seat": "el asiento",
          "Apartment": "el apartamento", "Floor": "la planta", "Terminal": "la terminal", "Level": "el nivel",
          "Step": "el paso", "Episode": "el episodio", "Season": "la temporada", "Volume": "el volumen",
          "Article": "el artículo", "Version": "la versión", "Building": "el edificio", "Line": "la línea",
          "Question": "la pregunta", "Exercise": "el ejercicio", "Figure": "la figura", "Part": "la parte",
          "Unit": "la unidad", "Round": "la ronda", "Aisle": "el pasillo", "Office": "la oficina", "Bus": "el autobús",
          "Route": "la ruta", "Stop": "la parada", "Zone": "la zona", "Block": "el bloque", "Bed": "la cama",
          "Day": "el día", "Week": "la semana", "Act": "el acto", "Scene": "la escena", "Flight": "el vuelo",
          "Extension": "la extensión", "Box": "la caja", "Stage": "la etapa", "Slide": "la diapositiva",
          "Row": "la fila", "Highway": "la autopista", "Interstate": "la interestatal", "Track": "la vía",
          "Pier": "el muelle", "Suite": "la suite", "Ticket": "el ticket", "Invoice": "la factura", "Lane": "el carril",
          "Door": "la puerta", "Channel": "el canal", "Number": "el número", "Option": "la opción",
          "Hall": "la sala", "Locker": "la taquilla", "Ext.": "la ext.", "Bay": "el andén",
          "Conference room": "la sala de conferencias", "Meeting room": "la sala de reuniones",
          "Waiting room": "la sala de espera"}
# A noun that numbers what it names only before "#" or a code ("Order #45821"; "Order 5 pizzas" is no label).
SIGNED_LABELS = {"Order": "el pedido"}
# A word before a label numbered so, as Spanish says it before the label's noun, masculine and feminine: "Your order
# #58213 has shipped" came out "Tu orden n.º 58213 ha shipped", "pay invoice INV-2024-0187" "paga a INV-2024-0187".
LABEL_DETERMINERS = {"the": ("el", "la"), "a": ("un", "una"), "an": ("un", "una"), "your": ("tu", "tu"),
                     "my": ("mi", "mi"), "our": ("nuestro", "nuestra"), "this": ("este", "esta"), "that": ("ese", "esa"),
                     "his": ("su", "su"), "their": ("su", "su")}

# What a number or code names, before it or its "is" ("My order number is 77412" came out "Mi número de teléfono es
# 77412", "Your verification code is 482-913" "Tu verificación es 482-913"), as Spanish says it.
NUMBER_NAMES = {
    **{f"{what} number": f"número de {spanish}" for what, spanish in {
        "order": "pedido", "account": "cuenta", "confirmation": "confirmación", "booking": "reserva",
        "reservation": "reserva", "tracking": "seguimiento", "reference": "referencia", "case": "caso",
        "customer": "cliente", "member": "socio", "membership": "socio", "invoice": "factura", "policy": "póliza",
        "serial": "serie", "ticket": "ticket", "flight": "vuelo", "license": "licencia", "model": "modelo",
        "part": "pieza", "claim": "reclamación", "passport": "pasaporte", "seat": "asiento", "room": "habitación",
        "table": "mesa", "plate": "matrícula", "registration": "matrícula", "ID": "identificación"}.items()},
    **{f"{what} code": f"código de {spanish}" for what, spanish in {
        "verification": "verificación", "confirmation": "confirmación", "access": "acceso", "security": "seguridad",
        "discount": "descuento", "promo": "descuento", "promotional": "descuento", "coupon": "descuento",
        "booking": "reserva", "reservation": "reserva", "error": "error", "activation": "activación",
        "gift": "regalo", "tracking": "seguimiento", "reference": "referencia"}.items()},
    # A plate and a booking's reference said by masculine nouns, which agree with the article the model writes before
    # a place's stand-in ("la matrícula" would not).
    "zip code": "código postal", "postal code": "código postal", "license plate": "número de matrícula",
    "booking reference": "código de reserva"}
# A rough count opening a sentence ("About 200 people came" came out "Aproximar a la reunión de 200 personas"), as
# Spanish says it.
ROUGHLY = {"About": "alrededor de", "Around": "alrededor de", "Roughly": "aproximadamente",
           "Approximately": "aproximadamente", "Nearly": "casi", "Almost": "casi"}

# Forms of address before a name, as Spanish says them, with the article: kin ("Aunt Linda" came out "Una caza de
# Linda", "Uncle Bob" "Un millolo a Bob", "Father O'Malley", a priest, "Mi padre O'Malley") and ranks ("Queen Elizabeth
# II reigned" came out "Reunió Elizabeth II"), only those whose gender the word gives ("Professor Kim" may be "la
# profesora"). After a capitalised word a rank is part of a name ("Stephen King", "Burger King"), kin hardly ever.
KIN = {"Aunt": "la tía", "Auntie": "la tía", "Uncle": "el tío", "Grandma": "la abuela", "Granny": "la abuela",
       "Grandmother": "la abuela", "Grandpa": "el abuelo", "Grandfather": "el abuelo", "Father": "el padre",
       "Sister": "la hermana", "Brother": "el hermano"}
RANKS = {"Queen": "la reina", "King": "el rey", "Prince": "el príncipe", "Princess": "la princesa", "Pope": "el papa",
         "Emperor": "el emperador", "Empress": "la emperatriz", "Duke": "el duque", "Duchess": "la duquesa"}
# A mountain's or a lake's word before its name, said so too: "Mt. Fuji" came out "el monte. Fuji" or lost the name
# ("Quiero escalar el monte. El monte."), "Mount Fuji" "Moaza".
PLACES = {"Mount": "el monte", "Mt.": "el monte", "Lake": "el lago"}
ADDRESS = {**KIN, **RANKS, **PLACES}
# Countries, unions and bodies of nations by the initials English writes them with, as Spanish says them, with
# their article.
COUNTRIES = {"US": "Estados Unidos", "U.S.": "Estados Unidos", "USA": "Estados Unidos", "U.S.A.": "Estados Unidos",
             "UK": "el Reino Unido", "U.K.": "el Reino Unido", "EU": "la UE", "E.U.": "la UE", "UN": "la ONU",
             "U.N.": "la ONU", "WHO": "la OMS", "NATO": "la OTAN", "IMF": "el FMI"}
# Words after a country that show it is no noun's qualifier ("the US is", "the UK and", "the EU met"): verbs in the
# past that take no "-ed" ("The UK left the European Union" came out "El UK dejó la izquierda …") or in "-s" that name
# no thing ("the U.K. opens at 9").
AFTER_COUNTRY = ("is|was|are|were|has|have|had|will|would|can|could|should|must|may|might|does|did|do|says|said|met|"
                 "made|took|gave|sent|won|lost|began|became|left|went|came|got|led|spent|saw|chose|grew|paid|sold|bought|"
                 "built|held|kept|told|thought|brought|stood|ran|wrote|fell|cut|set|put|opens|needs|wants|"
                 "and|or|but|in|on|at|to|for|with|from|by|of|as|than|that|"
                 "which|who|last|this|next|since|because|before|after|until|now|too|also|again|today|yesterday|tomorrow")
# A word after a country, or after the noun it qualifies, that shows the clause goes on: one of those, or a verb in "-ed".
GOES_ON_AFTER_COUNTRY = rf"(?:{AFTER_COUNTRY})\b|[a-z]+ed\b"
# Greetings before the name they greet, which the model copied ("Hi Maria, thanks for your email." -> "Hi Maria,
# gracias por tu correo.", "Good morning Anna" -> "Los buenos días estás listo Anna"), as Spanish says them. "Dear",
# which the corpus never shows before a name (copied: "Dear Maria, gracias ..."), is "Estimado" or "Estimada" by the
# title's gender, and "Hola" before a name alone: Spanish says "Querido" or "Querida" by a gender the name does not give.
GREETINGS = {"Hi": "Hola", "Hello": "Hola", "Hey": "Hola", "Good morning": "Buenos días", "Good afternoon": "Buenas tardes",
             "Good evening": "Buenas noches", "Dear": "Hola",
             **{f"Dear {title}{stop}": f"{'Estimado' if said.startswith('el ') else 'Estimada'} {said[3:]}"
                for title, said in SPANISH_TITLES.items() for stop in ("", ".")}}
# Those greeted as a group, after a greeting ("Hi everyone," came out "Hi todos,", "Hi there," "Hi allí,"), and "Hi"
# or "Hello" greeting no one ("Hi, can you help me?" -> "Hi, ¿puedes ayudarme?"): the Spanish after "Hola", if any.
GREETED = {"everyone": "a todos", "everybody": "a todos", "all": "a todos", "folks": "a todos", "guys": "chicos",
           "team": "equipo", "there": ""}
BARE_GREETINGS = ("Hi", "Hello")
# Words said to someone before their name and a comma ("Yes, Mr. Li, I will"): the name is spoken to.
CALLS = ("Yes", "No", "Sorry", "Please", "OK", "Okay", "Well", "Excuse me", "Welcome", "Congratulations", "Oh", "Look",
         "Listen")
# A letter's closing before a comma and the signature ("Best regards, John." came out "Tenlo de saludo, John.";
# "Thanks, Anna" "Gracias, a Anna.").
CLOSINGS = {"Best regards": "Saludos cordiales", "Kind regards": "Saludos cordiales", "Warm regards": "Saludos cordiales",
            "Regards": "Saludos", "Best wishes": "Un saludo", "Sincerely": "Atentamente", "Yours sincerely": "Atentamente",
            "Yours truly": "Atentamente", "Thanks": "Gracias", "Thank you": "Gracias", "Many thanks": "Muchas gracias",
            "Cheers": "Saludos"}

# After these words "2 millones" takes no "de" before them: they are no noun it counts.
NOT_COUNTED = {"of", "and", "or", "to", "in", "on", "at", "for", "by", "from", "with", "than", "a", "an", "the", "is", "are",
               "was", "were", "will", "would", "per", "each", "every", "this", "that", "ago", "more", "less", "times"}


def counts_noun(after):
    """Whether `after`, the text after a number with a scale, opens with a noun the number counts, which Spanish says
    after "de" ("2 millones de personas"): not a word of `NOT_COUNTED`, nor a verb in the past ("2 million watched").

    >>> counts_noun(" people came"), counts_noun(" of them"), counts_noun(" watched it"), counts_noun(".")
    (True, False, False, False)
    """
    word = re.match(r"\s+([^\W\d_]+)", after)
    return word is not None and word[1].lower() not in NOT_COUNTED and not word[1].endswith("ed")


def opens_sentence(text, start):
    """Whether the word at `start` of `text` opens its sentence: only spaces and opening marks come before it.

    >>> opens_sentence("¿Dónde está Tom?", 1), opens_sentence("¿Dónde está Tom?", 12)
    (True, False)
    """
    return not text[:start].strip(" \"'¿¡(")


def starts_sentence(text, start):
    """Whether the word at `start` of `text` opens it (`opens_sentence`) or a sentence within it, after a full stop,
    question or exclamation mark.

    >>> starts_sentence("Is it? He is.", 7), starts_sentence("Tom, he is.", 5)
    (True, False)
    """
    return opens_sentence(text, start) or bool(re.search(rf"[{SENTENCE_END}][\s{SENTENCE_OPEN}']*$", text[:start]))


def spanish_ordinal(value):
    """The ordinal `value` as Spanish writes it before a noun, in the masculine, in words up to ten ("tercer",
    "cuarto") and in digits above ("12.º"): `spanish.agreeing` makes it agree with what the translation puts around it.

    >>> spanish_ordinal(3), spanish_ordinal(4), spanish_ordinal(12)
    ('tercer', 'cuarto', '12.º')
    """
    if value > len(SPANISH_ORDINALS):
        return f"{value}.º"
    stem = SPANISH_ORDINALS[value - 1]
    return stem if stem.endswith("r") else stem + "o"


# The endings of Spanish's regular verbs in "-ar", "-er" and "-ir", each form's.
AR = ("o as a amos áis an é aste ó asteis aron aba abas ábamos abais aban aré arás ará aremos aréis arán aría arías "
      "aríamos aríais arían e es emos éis en ara aras áramos arais aran ase ases ásemos aseis asen ando ado ada ados adas "
      "ad ar").split()
ER = ("o es e emos éis en í iste ió isteis ieron ía ías íamos íais ían eré erás erá eremos eréis erán ería erías "
      "eríamos eríais erían a as amos áis an iera ieras iéramos ierais ieran iese ieses iésemos ieseis iesen iendo ido "
      "ida idos idas ed er").split()
IR = ("o es e imos ís en í iste ió isteis ieron ía ías íamos íais ían iré irás irá iremos iréis irán iría irías "
      "iríamos iríais irían a as amos áis an iera ieras iéramos ierais ieran iese ieses iésemos ieseis iesen iendo ido "
      "ida idos idas id ir").split()
# Endings only verbs have (the infinitive, the preterite, the imperfect, the future, the gerund): a lexicon word
# with one shows a verb. Others are endings of nouns too ("macho", "cuchara", "clase", "cansado").
VERBAL = {"ar", "er", "ir", "ó", "é", "í", "aste", "iste", "aron", "ieron", "ió", "aba", "abas", "aban", "ábamos", "ía",
          "ías", "ían", "íamos", "ando", "iendo", "aré", "arás", "ará", "aremos", "arán", "aría", "arías", "arían", "eré",
          "erás", "erá", "eremos", "erán", "ería", "erías", "erían", "iré", "irás", "irá", "iremos", "irán", "iría", "irías",
          "irían"}
# Pronouns written after an infinitive, a gerund or an imperative, one or two: "dámelo", "convencerte".
PRONOUNS = ("me", "te", "se", "nos", "os", "lo", "la", "le", "los", "las", "les")
CLITICS = ({a + b for a in ("", "me", "te", "se", "nos") for b in ("", "lo", "la", "le", "los", "las", "les")}
           | set(PRONOUNS)) - {""}

# The tables and patterns of what `verbatim` protects that other modules read too (`numbers`, `spelling`,
# `spanish`, `garbling`, `name_forms`): the rarity of a name, months, weekdays, units, currencies, days, names,
# countries.
MIN_COUNT = 5  # a word seen less often than this taught the model little about it
TITLE = rf"(?:{'|'.join(TITLES)})\."
# "Jean-Luc", and "O'Connor" (an apostrophe before a capital: "Smith's" is no part of the name).
CAPITALISED = r"[A-ZÀ-ÖØ-Þ][^\W_]*(?:-[^\W\d_][^\W_]*|['’][A-ZÀ-ÖØ-Þ][^\W_]*)*"
# "6 p.m." and "7:45 pm"; the full stop of "p.m." is the span's only when the sentence goes on (a lower-case word or a
# comma after it: "from 9 to 9 p.m., Monday to Saturday" lost its weekdays, the model ending at "37.,").
MERIDIEM = r"(?:[ap]\.m\.(?=\s+[a-z]|[,;:])|[ap]\.m\b|[ap]m\b|[AP]M\b)"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December")
MESES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre",
         "diciembre")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DIAS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")
# A weekday, and the "s" of its plural ("on Tuesdays").
WEEKDAY = re.compile(rf"(?<!\w)({'|'.join(WEEKDAYS)})(s?)(?!\w)")
MONTH = "|".join(MONTHS + MONTHS_SHORT)


def _days_in_words(days):
    """A pattern of `days` in words, "twenty-first" or "twenty first", the longest first: "twentieth" is no "twenty"."""
    return "(?i:" + "|".join(sorted((day.replace("-", r"[\s-]") for day in days), key=len, reverse=True)) + ")"


DAY_WORD = _days_in_words(ORDINAL_DAYS)
# Units and currency codes written after a number, and currencies written before it: "250 ml", "4 USD" and
# "US$ 899" are one span each, so that the model cannot drop the unit ("250 de leche"), the number with it ("o a
# USD") or the currency ("Estados Unidos 899").
CODES = "USD|EUR|GBP|JPY|CHF|CAD|AUD|MXN|BTC|ETH"
# "sq ft" whole: "850 sq ft" came out "850 barro".
UNITS = f"sq\\.?\\s?(?:ft|mi|km|yd|m)|km/h|m/s|mins?|hrs?|secs?|mm|cm|km|mi|mg|kg|ml|cl|lbs?|oz|ft|mph|kph|kWh|kW|mAh|GHz|MHz|kHz|Hz|GB|MB|KB|TB|°[CF]|°|m|g|l|{CODES}"
SIGNS = "$€£¥₹₩₽₺₪₫₱₴₦¢"
CURRENCY = rf"(?:[A-Z]{{1,3}}\$\s?|[{SIGNS}]|(?:{CODES})\s)"
# Lower-case words inside a name: "Rio de Janeiro", "Leonardo da Vinci", "Ludwig van Beethoven".
PARTICLES = "de|da|del|della|di|du|dos|das|van|von|der|den|la|le|bin|ibn|al"
# A number after "No." ("Apartment No. 5"), which Spanish abbreviates "n.º 5".
NUMBERED = r"No\.\s?\d+(?!\w|[.,]\d)"
# A label of two words in either case after the first ("Conference Room B", "conference room 2"); its full stop a full
# stop ("Ext.").
LABEL = "|".join(re.sub(r" (\w)", lambda m: f" [{m[1]}{m[1].upper()}]", re.escape(label)) for label in LABELS)
# A letter alone numbers a place too ("conference room B" came out "en conferencias de la sala de conferencias", the
# letter lost; "Vitamin C" "Vitamin"); "A" only where no article can be ("in section A near …"), "I" where no pronoun.
LETTER = r"[B-HJ-Z]|A(?=[.,;:!?)]|$|\s+(?:and|or|is|was|are|were|near|next|on|in|at|for|of|to|with|from|by)\b)"
# Not before a unit of time: "Exercise 30 minutes a day." is no label. In Roman numerals too ("Chapter IV" came out
# "Chapter IV explique"); "I" only at a sentence's or clause's end ("in part I think" is none). An airline's code
# before a flight's number ("Flight AA 2417" came out "Flight AA 2417 a Miami", left in English).
LABEL_NUMBER = (rf"\s(?:(?:\d+(?:\.\d+)*|[A-Z]\d+|[A-Z]{{2}}\s?\d{{1,4}})[A-Z]?|[IVX]{{2,}}|I(?=[.,;:!?)]|$)|{LETTER})"
                r"(?![\w-]|[.,]\d|\s+(?:second|minute|hour|day|week|month|year|time)s?\b)")
# The words after which an ordinal is a day (but for a noun: "on the 5th floor").
AFTER_DAY = ("at|is|was|will|now|then|and|or|to|until|till|by|before|after|through|this|next|about|for|with|so|but|"
             r"because|when|if|as|of\s+(?:the|this|next)\s+month")
# An ordinal in digits after "on the", "by the", "until the" ... with no noun after it is a day of the month ("on the
# 14th at 6:45", "by the 15th.", "the 3rd of every month"), which Spanish says with the bare number, "el 14": the model
# copied it in English ("en el 14th") and a second decoding wrote it as an ordinal ("el 14.º"). In words from the
# eleventh ("from the fourteenth to the seventeenth" came out "desde la fourteenth a seventeenth"); "the third" or
# "the second" are often no day, but before "of every month" ("on the first of every month").
_DAY_AFTER = ("on", "by", "until", "till", "before", "after", "from", "since", "through", "for", "to", "and", "between")
LATE_DAY_WORD = _days_in_words(ORDINAL_DAYS[10:])
DAY = ("(?:" + "|".join(rf"(?<=\b[{word[0]}{word[0].upper()}]{word[1:]} the )" for word in _DAY_AFTER)
       + rf")(?:(?:\d{{1,2}}(?:st|nd|rd|th)|{DAY_WORD})\s+of\s+(?:every|each)\s+month\b"
       + rf"|(?:\d{{1,2}}(?:st|nd|rd|th)|{LATE_DAY_WORD})(?![\w-])(?!\s+(?!(?:{AFTER_DAY})\b)[a-z]))")
# Days of the month from one to another, "from the 1st to the 14th", "from the third to the ninth of June": the model
# read the last as an ordinal ("del 1 para el 14.º") or said the first so ("desde el tercer al 9 de junio"). Any
# ordinal up to the thirty-first, the other being a day, and a place after them too ("in the main hall").
ORDINAL_DAY = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{DAY_WORD})"
DAYS_RANGE = (rf"(?<![\w-])[Ff]rom\s+the\s+{ORDINAL_DAY}\s+(?:to|until|till|through|thru)\s+the\s+{ORDINAL_DAY}"
              rf"(?:\s+of\s+(?:{MONTH})\b|(?![\w-])(?!\s+(?!(?:{AFTER_DAY}|in|on)\b)[a-z]))")
# Or dates with their month from one to another, "from July 1 to July 15", "Dec. 24 to Jan. 2", "July 4-6": the model
# said the second as no day ("del 1 de julio para el 15 de julio", "4 de julio y 6") or the first without its "del"
# ("cerrada 24 de diciembre al 2 de enero"). Not before an hour ("from May 5 to 10 am") or a noun ("May 5 to 10 people").
_MONTH_DAY = rf"(?:{MONTH})\.?\s\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s\d{{4}})?"
DAYS_APART = r"\s+(?:to|until|till|through|thru)\s+|\s?[–-]\s?"
DATES_RANGE = (rf"(?<![\w-])(?:[Ff]rom\s+)?{_MONTH_DAY}(?:{DAYS_APART})(?:(?:{MONTH})\.?\s)?\d{{1,2}}(?:st|nd|rd|th)?"
               rf"(?:,?\s\d{{4}})?(?![\w%°-]|[.,:]\d)(?!\s?{MERIDIEM})(?!\s+(?!(?:{AFTER_DAY}|in|on)\b)[a-z])")
# A country by its initials (`COUNTRIES`), and a capitalised word of one of its bodies after it ("the U.S. Navy", "the
# US Department of State").
COUNTRY = rf"(?:{'|'.join(map(re.escape, COUNTRIES))})"
BODY_WORD = rf"(?:\s+(?:of\s+(?:the\s+)?)?(?!I\b){CAPITALISED})"
# Initials with full stops: "U.K.", "E.U.".
INITIALS = r"(?<![\w.])(?:[A-Z]\.){2,}(?!\w)"
# A run of capitalised words, as in a name; a title, "No." before a number, a label ("Room 214"), kin before a name
# ("Tell Uncle Sam") or a country ("The US Navy", `COUNTRY`) starts another, and initials are none ("The U.S.").
KIN_NAME = rf"(?:{'|'.join(KIN)})\s{CAPITALISED}"
NAME = (rf"(?<![\w-]){CAPITALISED}(?:\s(?:(?:{PARTICLES})\s){{0,2}}"
        rf"(?!{TITLE}|{NUMBERED}|(?:{LABEL}){LABEL_NUMBER}|{KIN_NAME}|{INITIALS}|{COUNTRY}(?!\w)){CAPITALISED})*(?![\w+&-])")
# A month's name said as a time, not a person's ("in June", "last August", "June 3", "was November"); "May" is a verb
# and a name as often.
_MONTHS_BUT_MAY = "|".join(month for month in MONTHS if month != "May")
MONTH_AS_TIME = re.compile(rf"(?:(?<!\w)(?i:in|last|next|this|every|of|since|until|till|by|early|late|mid|during|before"
                           rf"|after|from|through|on|was|is)|\d)\s+({_MONTHS_BUT_MAY})(?!\w)|(?<!\w)({_MONTHS_BUT_MAY})\s+\d")
