// The few libxml2 calls oceq's HTML renderer needs, behind plain functions (libxml2's xmlFree is a
// global function pointer, which Swift 6 cannot call safely).
#pragma once
// Debian's libxml2 is built with ICU, so its encoding.h includes <unicode/ucnv.h>; those ICU types
// clash with the copy inside Foundation (_FoundationICU) in any Swift module that sees both ("UErrorCode
// has different definitions in different modules"). oceq never touches libxml2's encoding handlers (the
// only structure whose fields depend on it), so the ICU part of the headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <string.h>

/// Parses `size` bytes of UTF-8 HTML in recovery mode, with no network, no error output and
/// compact text nodes. NULL when libxml2 produced no document at all. `*halted` is set to 1 when
/// libxml2 stopped early because elements nest deeper than its limit (256 without
/// HTML_PARSE_HUGE): the document then holds only what came before that point.
static inline htmlDocPtr oceq_html_read(const char *buffer, int size, int *halted) {
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET
        | HTML_PARSE_COMPACT | HTML_PARSE_NOBLANKS;
    *halted = 0;
    htmlParserCtxtPtr context = htmlNewParserCtxt();
    if (!context) return NULL;
    htmlDocPtr document = htmlCtxtReadMemory(context, buffer, size, NULL, "UTF-8", options);
    xmlErrorPtr error = xmlCtxtGetLastError(context);
    if (error && error->code == XML_ERR_INTERNAL_ERROR && error->message && strstr(error->message, "depth")) {
        *halted = 1;
    }
    htmlFreeParserCtxt(context);
    return document;
}

/// The value of attribute `name` of `node` (free it with oceq_xml_free), or NULL.
static inline char *oceq_html_attribute(xmlNodePtr node, const char *name) {
    return (char *)xmlGetProp(node, (const xmlChar *)name);
}

/// Frees what libxml2 allocated.
static inline void oceq_xml_free(void *pointer) { if (pointer) xmlFree(pointer); }

/// 1 for an element node, 2 for text or CDATA, 0 for anything else (comments, PIs, DTDs).
static inline int oceq_xml_kind(xmlNodePtr node) {
    if (node->type == XML_ELEMENT_NODE) return 1;
    if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) return 2;
    return 0;
}
