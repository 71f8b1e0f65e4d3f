// libxml2 through CSystem's loader: the table is typed by libxml2's headers, and the constants and
// node layout are theirs.
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <string.h>

#include "CLibXML2.h"
#include "CSystem.h"

// xmlFree is a variable holding the deallocator, so its field is the variable's address.
#define OCEQ_XML_FUNCTIONS(F) \
    F(htmlNewParserCtxt) F(htmlCtxtReadMemory) F(xmlCtxtGetLastError) F(htmlFreeParserCtxt) F(xmlGetProp) \
    F(xmlFreeDoc) F(xmlFree)

OCEQ_LIBRARY_DECLARE(xml, OCEQ_XML_FUNCTIONS)
OCEQ_LIBRARY_DEFINE(xml, "libxml2.so.2", RTLD_NOW | RTLD_LOCAL, OCEQ_XML_FUNCTIONS)

OceqHTMLDocument *oceq_html_read(const char *buffer, int size, int *halted) {
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET
        | HTML_PARSE_COMPACT | HTML_PARSE_NOBLANKS;
    *halted = 0;
    const struct oceq_xml_api *api = oceq_xml();
    if (!api) return NULL;
    htmlParserCtxtPtr context = api->htmlNewParserCtxt();
    if (!context) return NULL;
    htmlDocPtr document = api->htmlCtxtReadMemory(context, buffer, size, NULL, "UTF-8", options);
    xmlErrorPtr error = api->xmlCtxtGetLastError(context);
    if (error && error->code == XML_ERR_INTERNAL_ERROR && error->message && strstr(error->message, "depth")) {
        *halted = 1;
    }
    api->htmlFreeParserCtxt(context);
    return document;
}

void oceq_html_free(OceqHTMLDocument *document) {
    const struct oceq_xml_api *api = oceq_xml();
    if (api && document) api->xmlFreeDoc(document);
}

OceqXMLNode *oceq_html_first_node(OceqHTMLDocument *document) { return document->children; }

int oceq_xml_kind(OceqXMLNode *node) {
    if (node->type == XML_ELEMENT_NODE) return 1;
    if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) return 2;
    return 0;
}

const char *oceq_xml_name(OceqXMLNode *node) { return (const char *)node->name; }
const char *oceq_xml_content(OceqXMLNode *node) { return (const char *)node->content; }
OceqXMLNode *oceq_xml_children(OceqXMLNode *node) { return node->children; }
OceqXMLNode *oceq_xml_next(OceqXMLNode *node) { return node->next; }
OceqXMLNode *oceq_xml_parent(OceqXMLNode *node) { return node->parent; }

char *oceq_html_attribute(OceqXMLNode *node, const char *name) {
    const struct oceq_xml_api *api = oceq_xml();
    return api ? (char *)api->xmlGetProp(node, (const xmlChar *)name) : NULL;
}

void oceq_xml_free(void *pointer) {
    const struct oceq_xml_api *api = oceq_xml();
    if (api && pointer) (*api->xmlFree)(pointer);
}
