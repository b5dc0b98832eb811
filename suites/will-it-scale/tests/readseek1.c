#include "testcase.h"

WIS_TESTCASE(readseek1, "Separate file seek+read", NULL, buf_file_setup, readseek1_run);
