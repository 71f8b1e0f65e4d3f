// The few libxml2 calls oceq's HTML renderer needs, behind plain functions. libxml2 is opened at first
// use through CSystem's loader: with ICU, zlib and liblzma it cost every start of oceq about 1.1 ms when
// linked, and only `read` and `show` of rich text parse HTML. Its headers need an include path, so only
// CLibXML2.c includes them (with the table typed by them); this header declares the wrappers alone, and
// documents and nodes are opaque: Swift walks a tree through the accessors below.
#pragma once

/// A parsed HTML document (libxml2's htmlDocPtr).
typedef struct _xmlDoc OceqHTMLDocument;
/// A node of a parsed document (libxml2's xmlNodePtr).
typedef struct _xmlNode OceqXMLNode;

/// Parses `size` bytes of UTF-8 HTML in recovery mode, with no network, no error output and
/// compact text nodes. NULL when libxml2 produced no document at all (or cannot be opened).
/// `*halted` is set to 1 when libxml2 stopped early because elements nest deeper than its limit
/// (256 without HTML_PARSE_HUGE): the document then holds only what came before that point.
OceqHTMLDocument *oceq_html_read(const char *buffer, int size, int *halted);

/// Frees a document oceq_html_read returned.
void oceq_html_free(OceqHTMLDocument *document);

/// The first node of a document, or NULL.
OceqXMLNode *oceq_html_first_node(OceqHTMLDocument *document);

/// 1 for an element node, 2 for text or CDATA, 0 for anything else (comments, PIs, DTDs).
int oceq_xml_kind(OceqXMLNode *node);

/// A node's name (an element's tag), or NULL.
const char *oceq_xml_name(OceqXMLNode *node);

/// A text node's content, or NULL.
const char *oceq_xml_content(OceqXMLNode *node);

/// A node's first child, next sibling or parent, or NULL.
OceqXMLNode *oceq_xml_children(OceqXMLNode *node);
OceqXMLNode *oceq_xml_next(OceqXMLNode *node);
OceqXMLNode *oceq_xml_parent(OceqXMLNode *node);

/// The value of attribute `name` of `node` (free it with oceq_xml_free), or NULL.
char *oceq_html_attribute(OceqXMLNode *node, const char *name);

/// Frees what libxml2 allocated.
void oceq_xml_free(void *pointer);
