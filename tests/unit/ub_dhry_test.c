/* Unit tests for suites/unixbench/ub_dhry.h: after N runs every variable
 * holds the value Weicker's Dhrystone 2.1 publishes for it (his "should
 * be" list: the same statements ran, in the same order). */
#include "unit.h"
#include "../../suites/unixbench/ub_dhry.h"

static void check_after(unsigned long runs, unsigned long batches)
{
	struct ub_dhry_locals l;
	char name[128];

	CHECK("dhry: init", ub_dhry_init() == 0);
	for (unsigned long b = 0; b < batches; b++)
		ub_dhry_runs(runs / batches, &l);
#define AT(what) (snprintf(name, sizeof(name), "dhry %lu runs: %s", runs, (what)), name)
	CHECK(AT("runs counted"), ub_dh_runs == runs);
	CHECK(AT("Int_Glob 5"), ub_dh_int == 5);
	CHECK(AT("Bool_Glob 1"), ub_dh_bool == 1);
	CHECK(AT("Ch_1_Glob A"), ub_dh_ch1 == 'A');
	CHECK(AT("Ch_2_Glob B"), ub_dh_ch2 == 'B');
	CHECK(AT("Arr_1_Glob[8] 7"), ub_dh_arr->one[8] == 7);
	CHECK(AT("Arr_2_Glob[8][7] runs + 10"), ub_dh_arr->two[8][7] == (int)runs + 10);
	CHECK(AT("Ptr_Glob: Ptr_Comp is Next_Ptr_Glob's"), ub_dh_glob->link == ub_dh_next->link);
	CHECK(AT("Ptr_Glob: Discr 0"), ub_dh_glob->tag == UB_DH_ID1);
	CHECK(AT("Ptr_Glob: Enum_Comp 2"), ub_dh_glob->v.a.kind == UB_DH_ID3);
	CHECK(AT("Ptr_Glob: Int_Comp 17"), ub_dh_glob->v.a.num == 17);
	CHECK_STR(AT("Ptr_Glob: Str_Comp"), ub_dh_glob->v.a.text, "DHRYSTONE PROGRAM, SOME STRING");
	CHECK(AT("Next_Ptr_Glob: Discr 0"), ub_dh_next->tag == UB_DH_ID1);
	CHECK(AT("Next_Ptr_Glob: Enum_Comp 1"), ub_dh_next->v.a.kind == UB_DH_ID2);
	CHECK(AT("Next_Ptr_Glob: Int_Comp 18"), ub_dh_next->v.a.num == 18);
	CHECK_STR(AT("Next_Ptr_Glob: Str_Comp"), ub_dh_next->v.a.text,
		  "DHRYSTONE PROGRAM, SOME STRING");
	CHECK(AT("Int_1_Loc 5"), l.i1 == 5);
	CHECK(AT("Int_2_Loc 13"), l.i2 == 13);
	CHECK(AT("Int_3_Loc 7"), l.i3 == 7);
	CHECK(AT("Enum_Loc 1"), l.e == UB_DH_ID2);
	CHECK_STR(AT("Str_1_Loc"), l.s1, "DHRYSTONE PROGRAM, 1'ST STRING");
	CHECK_STR(AT("Str_2_Loc"), l.s2, "DHRYSTONE PROGRAM, 2'ND STRING");
#undef AT
	ub_dhry_free();
}

int main(void)
{
	check_after(1, 1);
	check_after(1000, 1);
	check_after(50000, 10); /* in batches, as the timed loop runs */
	UNIT_EXIT();
}
