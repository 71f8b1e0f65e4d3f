#include "CArchive.h"

OCEQ_LIBRARY_DEFINE(archive, "libarchive.so.13", RTLD_NOW | RTLD_LOCAL, OCEQ_ARCHIVE_FUNCTIONS)
