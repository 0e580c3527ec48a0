"""The regression gate: two result sets compared, figure by figure."""
