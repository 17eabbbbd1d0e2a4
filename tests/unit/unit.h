/* Common includes for the cmocka unit tests. */
#ifndef DCB_UNIT_H
#define DCB_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#endif
