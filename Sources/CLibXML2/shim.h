// The few libxml2 calls oceq's HTML renderer needs, behind plain functions.
//
// libxml2 is opened with dlopen at first use, not linked: with ICU, zlib and liblzma it cost every
// start of oceq about 1.1 ms, and only `read` and `show` of rich text parse HTML. So this header does
// not include libxml2's headers (their pkg-config entry would link -lxml2 into every program, and they
// need an include path a system-library module cannot give without it): it declares the types,
// fields and constants oceq uses, which are part of libxml2's ABI (soname libxml2.so.2; offsets and
// values checked against libxml2 2.9.14's headers), as Sources/CVips/shim.h does for libvips. Only the
// leading fields of libxml2's structures are declared; they are only ever read through pointers that
// libxml2 returned.
#pragma once
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

/// libxml2's byte type: UTF-8.
typedef unsigned char xmlChar;
/// A node of a parsed document (`struct _xmlNode`, its fields up to `content`).
typedef struct _xmlNode {
    void *_private;
    int type;
    const xmlChar *name;
    struct _xmlNode *children;
    struct _xmlNode *last;
    struct _xmlNode *parent;
    struct _xmlNode *next;
    struct _xmlNode *prev;
    void *doc;
    void *ns;
    xmlChar *content;
} xmlNode;
typedef xmlNode *xmlNodePtr;
/// A parsed document (`struct _xmlDoc`, its fields up to `children`).
typedef struct _xmlDoc {
    void *_private;
    int type;
    char *name;
    struct _xmlNode *children;
} xmlDoc;
typedef xmlDoc *htmlDocPtr;
/// The start of libxml2's `xmlError`.
typedef struct {
    int domain;
    int code;
    char *message;
} OceqXMLError;

/// `htmlParserOption` values, `xmlParserErrors` XML_ERR_INTERNAL_ERROR and `xmlElementType` values.
enum {
    OCEQ_HTML_PARSE_RECOVER = 1,
    OCEQ_HTML_PARSE_NOERROR = 32,
    OCEQ_HTML_PARSE_NOWARNING = 64,
    OCEQ_HTML_PARSE_NOBLANKS = 256,
    OCEQ_HTML_PARSE_NONET = 2048,
    OCEQ_HTML_PARSE_COMPACT = 65536,
    OCEQ_XML_ERR_INTERNAL_ERROR = 1,
    OCEQ_XML_ELEMENT_NODE = 1,
    OCEQ_XML_TEXT_NODE = 3,
    OCEQ_XML_CDATA_SECTION_NODE = 4
};

/// The libxml2 functions oceq calls, looked up once; `complete` is 0 when libxml2 or one of them is missing.
struct oceq_xml_api {
    int complete;
    void *(*new_parser_context)(void);
    htmlDocPtr (*read_memory)(void *context, const char *buffer, int size, const char *url, const char *encoding,
                              int options);
    OceqXMLError *(*last_error)(void *context);
    void (*free_parser_context)(void *context);
    xmlChar *(*get_prop)(const xmlNode *node, const xmlChar *name);
    void (*free_doc)(htmlDocPtr document);
    /// libxml2's `xmlFree` is a global variable holding the deallocator; this is its address.
    void (**free)(void *memory);
};

static inline struct oceq_xml_api *oceq_xml_table(void) {
    static struct oceq_xml_api table;
    return &table;
}

static void oceq_xml_load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    struct oceq_xml_api *api = oceq_xml_table();
    *(void **)&api->new_parser_context = dlsym(library, "htmlNewParserCtxt");
    *(void **)&api->read_memory = dlsym(library, "htmlCtxtReadMemory");
    *(void **)&api->last_error = dlsym(library, "xmlCtxtGetLastError");
    *(void **)&api->free_parser_context = dlsym(library, "htmlFreeParserCtxt");
    *(void **)&api->get_prop = dlsym(library, "xmlGetProp");
    *(void **)&api->free_doc = dlsym(library, "xmlFreeDoc");
    *(void **)&api->free = dlsym(library, "xmlFree");
    api->complete = api->new_parser_context && api->read_memory && api->last_error && api->free_parser_context
        && api->get_prop && api->free_doc && api->free && *api->free;
}

/// The table, or NULL when libxml2 cannot be used (then no HTML is parsed).
static inline const struct oceq_xml_api *oceq_xml(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, oceq_xml_load);
    return oceq_xml_table()->complete ? oceq_xml_table() : NULL;
}

/// Parses `size` bytes of UTF-8 HTML in recovery mode, with no network, no error output and
/// compact text nodes. NULL when libxml2 produced no document at all (or cannot be opened).
/// `*halted` is set to 1 when libxml2 stopped early because elements nest deeper than its limit
/// (256 without HTML_PARSE_HUGE): the document then holds only what came before that point.
static inline htmlDocPtr oceq_html_read(const char *buffer, int size, int *halted) {
    int options = OCEQ_HTML_PARSE_RECOVER | OCEQ_HTML_PARSE_NOERROR | OCEQ_HTML_PARSE_NOWARNING
        | OCEQ_HTML_PARSE_NONET | OCEQ_HTML_PARSE_COMPACT | OCEQ_HTML_PARSE_NOBLANKS;
    *halted = 0;
    const struct oceq_xml_api *api = oceq_xml();
    if (!api) return NULL;
    void *context = api->new_parser_context();
    if (!context) return NULL;
    htmlDocPtr document = api->read_memory(context, buffer, size, NULL, "UTF-8", options);
    OceqXMLError *error = api->last_error(context);
    if (error && error->code == OCEQ_XML_ERR_INTERNAL_ERROR && error->message && strstr(error->message, "depth")) {
        *halted = 1;
    }
    api->free_parser_context(context);
    return document;
}

/// Frees a document oceq_html_read returned.
static inline void xmlFreeDoc(htmlDocPtr document) {
    const struct oceq_xml_api *api = oceq_xml();
    if (api && document) api->free_doc(document);
}

/// The value of attribute `name` of `node` (free it with oceq_xml_free), or NULL.
static inline char *oceq_html_attribute(xmlNodePtr node, const char *name) {
    const struct oceq_xml_api *api = oceq_xml();
    return api ? (char *)api->get_prop(node, (const xmlChar *)name) : NULL;
}

/// Frees what libxml2 allocated.
static inline void oceq_xml_free(void *pointer) {
    const struct oceq_xml_api *api = oceq_xml();
    if (api && pointer) (*api->free)(pointer);
}

/// 1 for an element node, 2 for text or CDATA, 0 for anything else (comments, PIs, DTDs).
static inline int oceq_xml_kind(xmlNodePtr node) {
    if (node->type == OCEQ_XML_ELEMENT_NODE) return 1;
    if (node->type == OCEQ_XML_TEXT_NODE || node->type == OCEQ_XML_CDATA_SECTION_NODE) return 2;
    return 0;
}
