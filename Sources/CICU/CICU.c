// ICU's calendar through CSystem's loader. ICU renames each function with its major version
// (`ucal_open` is `ucal_open_72`), so the names given to dlsym are the expanded ones, and the library is
// the one the headers belong to (libicui18n.so.<major>).
#include <string.h>
#include <unicode/ucal.h>
#include <unicode/uversion.h>

#include "CICU.h"
#include "CSystem.h"

#define OCEQ_ICU_FUNCTIONS(F) F(ucal_open) F(ucal_close) F(ucal_setMillis) F(ucal_get) F(ucal_getCanonicalTimeZoneID)

// A name after macro expansion (`ucal_open` -> "ucal_open_72"), for dlsym.
#define OCEQ_ICU_QUOTE(name) #name
#define OCEQ_ICU_EXPANDED_NAME(name) OCEQ_ICU_QUOTE(name),
#define OCEQ_ICU_SONAME_OF(major) "libicui18n.so." OCEQ_ICU_QUOTE(major)
#define OCEQ_ICU_SONAME(major) OCEQ_ICU_SONAME_OF(major)

static struct { OCEQ_ICU_FUNCTIONS(OCEQ_LIBRARY_FIELD) } table;
static const char *const names[] = { OCEQ_ICU_FUNCTIONS(OCEQ_ICU_EXPANDED_NAME) };
_Static_assert(sizeof table == sizeof names, "one pointer per function");
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status = -1;
static char message[512];

static void load(void) {
    status = oceq_library_open(OCEQ_ICU_SONAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL, names,
                               (void **)&table, sizeof names / sizeof names[0], message, sizeof message);
}

const char *oceq_icu_error(void) {
    pthread_once(&once, load);
    return status == 0 ? NULL : message;
}

int oceq_icu_local_date(const char *zone, double milliseconds, int *year, int *month, int *day) {
    pthread_once(&once, load);
    if (status != 0) return -2;
    UChar name[128];
    size_t length = strlen(zone);
    if (length == 0 || length >= sizeof name / sizeof name[0]) return -1;
    for (size_t i = 0; i < length; i++) {
        if ((unsigned char)zone[i] >= 0x80) return -1;
        name[i] = (UChar)zone[i];
    }
    // An unknown zone would open as "Etc/Unknown" (GMT) without an error: ask for its canonical name first.
    UChar canonical[128];
    UBool isSystem = 0;
    UErrorCode error = U_ZERO_ERROR;
    table.ucal_getCanonicalTimeZoneID(name, (int32_t)length, canonical, 128, &isSystem, &error);
    if (U_FAILURE(error) || !isSystem) return -1;
    error = U_ZERO_ERROR;
    UCalendar *calendar = table.ucal_open(name, (int32_t)length, "en_US_POSIX", UCAL_GREGORIAN, &error);
    if (U_FAILURE(error) || !calendar) return -2;
    table.ucal_setMillis(calendar, milliseconds, &error);
    int32_t y = table.ucal_get(calendar, UCAL_EXTENDED_YEAR, &error);
    int32_t m = table.ucal_get(calendar, UCAL_MONTH, &error);
    int32_t d = table.ucal_get(calendar, UCAL_DATE, &error);
    table.ucal_close(calendar);
    if (U_FAILURE(error)) return -2;
    *year = y;
    *month = m + 1;
    *day = d;
    return 0;
}
