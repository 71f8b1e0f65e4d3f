// The one ICU call oceq needs: the calendar date of an instant in a named time zone (a blog article's
// posted date in its own `timezone`). ICU (libicui18n) is opened at first use through CSystem's loader:
// oceq links FoundationEssentials only, whose `TimeZone(identifier:)` knows no named zone, and only the
// blog's commands show a date in a zone. ICU's headers rename every function with its version, so only
// CICU.c includes them; this header declares the wrapper alone.
#pragma once

/// The Gregorian date that `milliseconds` since 1970-01-01T00:00:00Z falls on in the IANA time zone `zone`
/// ("America/Denver"): 0 with `*year`, `*month` (1-12) and `*day` set; -1 when ICU does not know the zone
/// (or the name is not ASCII); -2 when ICU cannot be opened or fails (`oceq_icu_error()` may say why).
int oceq_icu_local_date(const char *zone, double milliseconds, int *year, int *month, int *day);

/// Why ICU could not be opened (the loader's message), or NULL when it was.
const char *oceq_icu_error(void);
