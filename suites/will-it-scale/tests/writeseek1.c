#include "testcase.h"

WIS_TESTCASE(writeseek1, "Separate file seek+write", NULL, empty_file_setup, writeseek1_run);
