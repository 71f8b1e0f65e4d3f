// libarchive for Swift (its API has no variadics; the shim only gathers the headers).
#pragma once
#include <archive.h>
#include <archive_entry.h>
