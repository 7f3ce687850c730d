#!/bin/sh
# Say whether a Depends field is satisfied by a libc package (libc6,
# libc6-i386, libc6-x32...) of a given version and Provides, as dpkg
# decides it: dpkg's own Dpkg::Deps (libdpkg-perl, which dpkg-dev
# brings), with that package the only one installed.  A dependency on
# any package but PACKAGE and PACKAGE-pidfd-... (its virtual packages) is an
# error: the question is about that package alone.
#
# Each CANDIDATE is LABEL|VERSION|PROVIDES|EXPECTED, EXPECTED being yes
# or no; the exit status is 1 if any answer differs from it, or if the
# dependency cannot be evaluated.
#
# Usage: scripts/deb/dependency-check.sh PACKAGE DEPENDS CANDIDATE...
set -u
[ $# -ge 3 ] || {
  echo "usage: scripts/deb/dependency-check.sh PACKAGE DEPENDS CANDIDATE..." >&2
  exit 2
}
ARCH=$(dpkg --print-architecture) exec perl -MDpkg::Deps -e '
use strict;
use warnings;
my $package = shift @ARGV;
my $field = shift @ARGV;
my $depends = deps_parse ($field)
  or die "dependency-check: cannot parse \"$field\"\n";
deps_iterate ($depends, sub {
  my $name = $_[0]->{package};
  $name eq $package || $name =~ /^\Q$package\E-pidfd-/
    or die "dependency-check: \"$field\" depends on $name, not on $package alone\n";
  1;
});
my $status = 0;
foreach my $candidate (@ARGV) {
  my ($label, $version, $provides, $expected) = split /\|/, $candidate, -1;
  defined $expected
    or die "dependency-check: \"$candidate\" is not LABEL|VERSION|PROVIDES|EXPECTED\n";
  my $facts = Dpkg::Deps::KnownFacts->new ();
  $facts->add_installed_package ($package, $version, $ENV{ARCH}, "same");
  if ($provides =~ /\S/) {
    deps_iterate (deps_parse ($provides, virtual => 1, union => 1), sub {
      $facts->add_provided_package ($_[0]->{package}, $_[0]->{relation},
				    $_[0]->{version}, $package);
      1;
    });
  }
  my $evaluation = $depends->get_evaluation ($facts);
  defined $evaluation
    or die "dependency-check: \"$field\" cannot be decided for $label\n";
  my $answer = $evaluation ? "yes" : "no";
  my $mark = $answer eq $expected ? "" : "   (expected $expected)";
  printf "  %-3s %s %s%s\n", $answer, $label, $version, $mark;
  $status = 1 if $mark;
}
exit $status;
' "$@"
