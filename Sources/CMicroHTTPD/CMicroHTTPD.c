#include "CMicroHTTPD.h"

OCEQ_LIBRARY_DEFINE(mhd, "libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL, OCEQ_MHD_FUNCTIONS)
