r"""What every kind of table shares: one documented internal package.

=========================  ==========================================================================
``schema``                 the tidy trial schema, label vocabulary, ``validate_trials`` → ``Trials``
``validation``             one validator and one ``ERROR_*`` message per concept
``options``                the ``Literal`` types of the options
``protocol``               the splits' roles and what ``on``/``apply_to="auto"`` mean, for every
                           kind of table; how, where and on what each threshold is chosen;
                           what a bootstrap resamples
``criteria``               the one table of threshold criteria and the one chooser
``results``                ``TestResult``, ``IntervalResult``: frozen results of scalar tests
``pairwise``               pairs, families, p-value adjustment, the pairwise table rows
``frames``                 result frames, one sweep per group, rate rows
``trial_groups``           the groups of a validated table laid out one after another, built lazily
``segmented``              the per-system functions over many groups in vectorised passes
``segmented_bootstrap``    the label bootstrap of a small group: every replicate drawn at once
``replicate_blocks``       a people bootstrap drawn one replicate at a time, read a block at a time
``counted``                counted trials (``count=``) written out once, bounded, ids of their own
``curve_datasets``         the builders of the curve Datasets
``replicates``             the replicate machinery of every bootstrap
``cells``                  the eight decision cells of two systems at fixed thresholds
``progress``               progress bars
``mirror``                 accessor methods generated from the functions (``df.biosig``, ``ddf.biosig``)
``arrow_strings``,         fast questions about string and object key columns
``object_runs``
=========================  ==========================================================================

Nothing here is public API: the public names are those of :mod:`pandas_biosig`.
"""
