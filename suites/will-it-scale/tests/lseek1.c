#include "testcase.h"

WIS_TESTCASE(lseek1, "Separate file lseek", NULL, buf_file_setup, lseek1_run);
