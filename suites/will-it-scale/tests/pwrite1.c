#include "testcase.h"

WIS_TESTCASE(pwrite1, "Separate file pwrite", NULL, empty_file_setup, pwrite1_run);
