#include "testcase.h"

WIS_TESTCASE(open2, "Separate file open/close in different directories", name_prepare,
	     dir_file_setup, open1_run);
