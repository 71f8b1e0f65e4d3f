// libarchive for Swift, opened with dlopen when the first zip export is unpacked instead of linked: it
// pulls in libxml2, ICU and five compression libraries, which every start of oceq loaded for nothing.
// The headers (in /usr/include, no pkg-config flags needed) give the types and constants; each
// `oceq_archive_*` wrapper calls the function of the same name without the prefix. Needs libarchive13
// at run time (libarchive-dev pulls it in).
#pragma once
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>

/// Opens libarchive for the rest of the process; 0 on success. Call before any wrapper.
static inline int oceq_archive_load(void) {
    return dlopen("libarchive.so.13", RTLD_NOW | RTLD_GLOBAL) ? 0 : -1;
}

/// The function `name` of libarchive, already opened by `oceq_archive_load`; NULL otherwise.
static inline void *oceq_archive_symbol(const char *name) {
    void *library = dlopen("libarchive.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return NULL;
    void *symbol = dlsym(library, name);
    dlclose(library);  // only the reference NOLOAD took: oceq_archive_load's keeps it open
    return symbol;
}

/// Declares `NAME_function`, a pointer to libarchive's NAME typed by its declaration in the header (typeof
/// does not evaluate, so NAME itself is never referenced or linked).
#define OCEQ_ARCHIVE_FUNCTION(name) \
    __typeof__(&name) name##_function = (__typeof__(&name))oceq_archive_symbol(#name)

static inline struct archive *oceq_archive_read_new(void) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_new);
    return archive_read_new_function ? archive_read_new_function() : NULL;
}

static inline int oceq_archive_read_free(struct archive *a) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_free);
    return archive_read_free_function ? archive_read_free_function(a) : ARCHIVE_FATAL;
}

static inline int oceq_archive_read_support_format_zip(struct archive *a) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_support_format_zip);
    return archive_read_support_format_zip_function ? archive_read_support_format_zip_function(a) : ARCHIVE_FATAL;
}

static inline int oceq_archive_read_open_filename(struct archive *a, const char *path, size_t block) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_open_filename);
    return archive_read_open_filename_function ? archive_read_open_filename_function(a, path, block) : ARCHIVE_FATAL;
}

static inline struct archive *oceq_archive_write_disk_new(void) {
    OCEQ_ARCHIVE_FUNCTION(archive_write_disk_new);
    return archive_write_disk_new_function ? archive_write_disk_new_function() : NULL;
}

static inline int oceq_archive_write_free(struct archive *a) {
    OCEQ_ARCHIVE_FUNCTION(archive_write_free);
    return archive_write_free_function ? archive_write_free_function(a) : ARCHIVE_FATAL;
}

static inline int oceq_archive_write_disk_set_options(struct archive *a, int flags) {
    OCEQ_ARCHIVE_FUNCTION(archive_write_disk_set_options);
    return archive_write_disk_set_options_function ? archive_write_disk_set_options_function(a, flags) : ARCHIVE_FATAL;
}

static inline int oceq_archive_read_next_header(struct archive *a, struct archive_entry **entry) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_next_header);
    return archive_read_next_header_function ? archive_read_next_header_function(a, entry) : ARCHIVE_FATAL;
}

static inline int oceq_archive_read_extract2(struct archive *a, struct archive_entry *entry, struct archive *to) {
    OCEQ_ARCHIVE_FUNCTION(archive_read_extract2);
    return archive_read_extract2_function ? archive_read_extract2_function(a, entry, to) : ARCHIVE_FATAL;
}

static inline const char *oceq_archive_error_string(struct archive *a) {
    OCEQ_ARCHIVE_FUNCTION(archive_error_string);
    return archive_error_string_function ? archive_error_string_function(a) : NULL;
}

static inline const char *oceq_archive_entry_pathname_utf8(struct archive_entry *entry) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_pathname_utf8);
    return archive_entry_pathname_utf8_function ? archive_entry_pathname_utf8_function(entry) : NULL;
}

static inline const char *oceq_archive_entry_pathname(struct archive_entry *entry) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_pathname);
    return archive_entry_pathname_function ? archive_entry_pathname_function(entry) : NULL;
}

static inline const char *oceq_archive_entry_hardlink(struct archive_entry *entry) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_hardlink);
    return archive_entry_hardlink_function ? archive_entry_hardlink_function(entry) : NULL;
}

static inline __LA_MODE_T oceq_archive_entry_filetype(struct archive_entry *entry) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_filetype);
    return archive_entry_filetype_function ? archive_entry_filetype_function(entry) : 0;
}

static inline void oceq_archive_entry_copy_pathname(struct archive_entry *entry, const char *path) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_copy_pathname);
    if (archive_entry_copy_pathname_function) archive_entry_copy_pathname_function(entry, path);
}

static inline void oceq_archive_entry_set_perm(struct archive_entry *entry, __LA_MODE_T mode) {
    OCEQ_ARCHIVE_FUNCTION(archive_entry_set_perm);
    if (archive_entry_set_perm_function) archive_entry_set_perm_function(entry, mode);
}
