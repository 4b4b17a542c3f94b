"""The AAS journal macros NASA ADS writes in BibTeX (``journal = {\\apj}``), as journal names.

ADS's export service writes a journal that the AAS macro packages name as that macro (its
``EXPORT_SERVICE_AASTEX_JOURNAL_MACRO``: ApJ as ``\\apj``, MNRAS as ``\\mnras``, A&A as ``\\aap``…). Outside LaTeX
with aastex loaded the macro is no name: it is read as the journal's full name, the ADS abbreviation kept.
"""

from __future__ import annotations

# macro -> (ADS bibstem abbreviation, the journal's name)
AAS_JOURNALS: dict[str, tuple[str, str]] = {
    "aj": ("AJ", "The Astronomical Journal"),
    "apj": ("ApJ", "The Astrophysical Journal"),
    "actaa": ("AcA", "Acta Astronomica"),
    "araa": ("ARA&A", "Annual Review of Astronomy and Astrophysics"),
    "apjl": ("ApJL", "The Astrophysical Journal Letters"),
    "apjs": ("ApJS", "The Astrophysical Journal Supplement Series"),
    "ao": ("ApOpt", "Applied Optics"),
    "apss": ("Ap&SS", "Astrophysics and Space Science"),
    "aap": ("A&A", "Astronomy and Astrophysics"),
    "aapr": ("A&ARv", "Astronomy and Astrophysics Review"),
    "aaps": ("A&AS", "Astronomy and Astrophysics Supplement Series"),
    "azh": ("AZh", "Astronomicheskii Zhurnal"),
    "baas": ("BAAS", "Bulletin of the American Astronomical Society"),
    "caa": ("ChA&A", "Chinese Astronomy and Astrophysics"),
    "cjaa": ("ChJAA", "Chinese Journal of Astronomy and Astrophysics"),
    "icarus": ("Icar", "Icarus"),
    "jcap": ("JCAP", "Journal of Cosmology and Astroparticle Physics"),
    "jrasc": ("JRASC", "Journal of the Royal Astronomical Society of Canada"),
    "memras": ("MmRAS", "Memoirs of the Royal Astronomical Society"),
    "mnras": ("MNRAS", "Monthly Notices of the Royal Astronomical Society"),
    "na": ("NewA", "New Astronomy"),
    "nar": ("NewAR", "New Astronomy Reviews"),
    "pra": ("PhRvA", "Physical Review A"),
    "prb": ("PhRvB", "Physical Review B"),
    "prc": ("PhRvC", "Physical Review C"),
    "prd": ("PhRvD", "Physical Review D"),
    "pre": ("PhRvE", "Physical Review E"),
    "prl": ("PhRvL", "Physical Review Letters"),
    "pasa": ("PASA", "Publications of the Astronomical Society of Australia"),
    "pasp": ("PASP", "Publications of the Astronomical Society of the Pacific"),
    "pasj": ("PASJ", "Publications of the Astronomical Society of Japan"),
    "rmxaa": ("RMxAA", "Revista Mexicana de Astronomía y Astrofísica"),
    "qjras": ("QJRAS", "Quarterly Journal of the Royal Astronomical Society"),
    "skytel": ("S&T", "Sky and Telescope"),
    "solphys": ("SoPh", "Solar Physics"),
    "sovast": ("SvA", "Soviet Astronomy"),
    "ssr": ("SSRv", "Space Science Reviews"),
    "zap": ("ZA", "Zeitschrift für Astrophysik"),
    "nat": ("Natur", "Nature"),
    "iaucirc": ("IAUC", "IAU Circulars"),
    "aplett": ("ApL", "Astrophysical Letters"),
    "apspr": ("ASPRv", "Astrophysics and Space Physics Reviews"),
    "bain": ("BAN", "Bulletin of the Astronomical Institutes of the Netherlands"),
    "fcp": ("FCPh", "Fundamentals of Cosmic Physics"),
    "gca": ("GeCoA", "Geochimica et Cosmochimica Acta"),
    "grl": ("GeoRL", "Geophysical Research Letters"),
    "jcp": ("JChPh", "The Journal of Chemical Physics"),
    "jgr": ("JGR", "Journal of Geophysical Research"),
    "jqsrt": ("JQSRT", "Journal of Quantitative Spectroscopy and Radiative Transfer"),
    "memsai": ("MmSAI", "Memorie della Società Astronomica Italiana"),
    "nphysa": ("NuPhA", "Nuclear Physics A"),
    "physrep": ("PhR", "Physics Reports"),
    "physscr": ("PhyS", "Physica Scripta"),
    "planss": ("P&SS", "Planetary and Space Science"),
    "procspie": ("SPIE", "Proceedings of the SPIE"),
    "jaavso": ("JAVSO", "Journal of the American Association of Variable Star Observers"),
    "psj": ("PSJ", "The Planetary Science Journal"),
    "maps": ("M&PS", "Meteoritics and Planetary Science"),
    "aas": ("AAS", "American Astronomical Society Meeting Abstracts"),
    "dps": ("DPS", "AAS/Division for Planetary Sciences Meeting Abstracts"),
}


def aas_journal(value: str) -> tuple[str, str] | None:
    """(abbreviation, name) of a journal written as an AAS macro ("\\mnras", "{\\apj}"); None for anything else."""
    text = value.strip().strip("{}").strip()
    if not text.startswith("\\") or not text[1:].isalpha():
        return None
    return AAS_JOURNALS.get(text[1:])
