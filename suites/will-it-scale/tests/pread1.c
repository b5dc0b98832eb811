#include "testcase.h"

WIS_TESTCASE(pread1, "Separate file pread", NULL, buf_file_setup, pread1_run);
