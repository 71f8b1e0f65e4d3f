// libarchive for Swift, opened when the first zip export is unpacked (it pulls in libxml2, ICU and five
// compression libraries, which every start of oceq loaded for nothing) through CSystem's loader:
// `oceq_archive()` is the table of the functions below, typed by <archive.h>, or NULL with
// `oceq_archive_error()` saying why. Needs libarchive13 at run time (libarchive-dev pulls it in).
#pragma once
// The table fields are _Nonnull (Swift calls them without unwrapping); the rest of the header is not annotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"
#pragma clang diagnostic ignored "-Wnullability-completeness-on-arrays"
#include <archive.h>
#include <archive_entry.h>
#include "CSystem.h"

#define OCEQ_ARCHIVE_FUNCTIONS(F) \
    F(archive_read_new) F(archive_read_free) F(archive_read_support_format_zip) F(archive_read_open_filename) \
    F(archive_write_disk_new) F(archive_write_free) F(archive_write_disk_set_options) F(archive_read_next_header) \
    F(archive_read_extract2) F(archive_error_string) F(archive_entry_pathname_utf8) F(archive_entry_pathname) \
    F(archive_entry_hardlink) F(archive_entry_filetype) F(archive_entry_copy_pathname) F(archive_entry_set_perm) \
    F(archive_write_header) F(archive_read_data_block) F(archive_write_data_block) F(archive_write_finish_entry) \
    F(archive_filter_bytes) F(archive_entry_size) F(archive_entry_size_is_set)

OCEQ_LIBRARY_DECLARE(archive, OCEQ_ARCHIVE_FUNCTIONS)

#pragma clang diagnostic pop
